/**
 * @module crawler/url-memo
 * Work on a URL (normalizing, filtering) done once per distinct URL: a hub's
 * URL appears in the links of thousands of pages. The built-in normalizers
 * and filters are plain functions of the URL, so a remembered answer is the
 * answer; updatedb and invertlinks remember whatever the plugins are (a
 * plugin of your own is asked about a URL once a segment for updatedb, once
 * a run for invertlinks), while the parse remembers
 * only answers that cannot change (`CrawlerPlugins.outlinkAnswersFixed`).
 * The memory is bounded: past `max` entries it starts over.
 */

/** Entries kept before the memo starts over: bounds its memory on any crawl size. */
const MAX = 200_000;

export function memoByUrl<T extends NonNullable<unknown> | null>(work: (url: string) => T, max = MAX): (url: string) => T {
  const memo = new Map<string, T>();
  return (url) => {
    let v = memo.get(url);
    if (v === undefined) {
      if (memo.size >= max) memo.clear();
      memo.set(url, (v = work(url)));
    }
    return v;
  };
}

/**
 * @module segments/fetch-updates
 * What updatedb reads of a segment, a fetch record at a time with its parse
 * links and fetchlist entry: one joined query over the segment's own file
 * instead of three lookups a page.
 */
import type { FetchlistEntry, FetchUpdate, ParseLinks } from './records.js';
import { fetchFromRow, fetchlistFromRow, parseLinksFromRow, type FetchRow, type ParseRow } from './rows.js';
import type { SegmentFiles } from './segment-files.js';

/** A fetch row with its parse's links and its fetchlist row, null where the URL has none. */
type FetchUpdateRow = FetchRow & { p_status: ParseRow['status'] | null; p_signature: string | null; p_outlinks: string | Buffer | null; p_meta: string | Buffer | null } & {
  l_pos: number | null;
  l_host: string | null;
  l_score: number | null;
  l_datum: string | Buffer | null;
};
/** `keyed` for a file whose parse rows are keyed by the fetch row (format 8; a parse stored by URL is looked up), `byUrl` for one before. */
const fetchUpdatesSql = (parse: string) => `SELECT f.*, p.status AS p_status, p.signature AS p_signature, p.outlinks AS p_outlinks, p.meta AS p_meta,
  l.pos AS l_pos, l.host AS l_host, l.score AS l_score, l.datum AS l_datum
  FROM fetch f LEFT JOIN ${parse} LEFT JOIN fetchlist l ON l.url = f.url ORDER BY f.rowid`;
const FETCH_UPDATES_SQL = { keyed: fetchUpdatesSql('parse_rows p ON p.id = f.rowid'), byUrl: fetchUpdatesSql('parse p ON p.url = f.url') };

export function* fetchUpdates(
  files: SegmentFiles,
  getParseLinks: (url: string) => ParseLinks | undefined,
  fetchlistEntry: (url: string) => (FetchlistEntry & { pos: number }) | undefined,
): IterableIterator<FetchUpdate> {
  const seen = files.parts.length ? new Set<string>() : undefined;
  for (const db of files.all) {
    const own = db === files.db;
    for (const r of files.q(db, !own ? 'SELECT * FROM fetch ORDER BY rowid' : files.keyedRows(db).parse ? FETCH_UPDATES_SQL.keyed : FETCH_UPDATES_SQL.byUrl).iterate() as Iterable<FetchUpdateRow>) {
      if (seen?.has(r.url)) continue;
      seen?.add(r.url);
      const fetch = fetchFromRow(r);
      const parse =
        fetch.status !== 'fetch_success'
          ? undefined
          : own && r.p_status !== null
            ? parseLinksFromRow({ status: r.p_status, signature: r.p_signature, outlinks: r.p_outlinks!, meta: r.p_meta! })
            : getParseLinks(r.url);
      const gen = !own ? fetchlistEntry(r.url) : r.l_pos === null ? undefined : fetchlistFromRow({ url: r.url, pos: r.l_pos, host: r.l_host!, score: r.l_score!, datum: r.l_datum! });
      yield { fetch, parse, gen };
    }
  }
}

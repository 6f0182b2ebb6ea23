/**
 * Pseudo-relevance feedback for questions (searcher/feedback): which queries
 * read as questions, which words the first pages give and at what weight,
 * and a search over a real index where a page that answers in the first
 * pages' other word rises above a page that lacks it, the first pages
 * gaining nothing.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Analyzer } from '../../shared/analysis/analyzer.js';
import { Conf } from '../../shared/conf.js';
import { feedbackTerms, isQuestion, type FeedbackPage } from '../../searcher/feedback.js';
import { analyzeQuery } from '../../searcher/query/analyze.js';
import { parseQuery } from '../../searcher/query/parse.js';
import { search } from '../../searcher/search.js';
import { searchSettings } from '../../searcher/settings.js';
import { withCrawlSnapshot } from './crawl-fixture.js';

test('isQuestion: at least minWords words of the default fields, stop and question words counted; no field, filter, exclusion or phrase', () => {
  const stop = searchSettings(Conf.load()).stopWords;
  const cases: [query: string, minWords: number, want: boolean][] = [
    ['how do I undo the last commit', 4, true],
    ['convert string to date', 4, true],
    ['streaming replication', 4, false],
    ['asyncio event loop', 4, false],
    ['asyncio event loop', 3, true],
    ['undo the last commit -reset', 4, false],
    ['title:undo the last commit', 4, false],
    ['undo the last commit site:127.0.0.1', 4, false],
    // A quoted phrase is one thing asked for exactly.
    ['"undo the last commit"', 4, false],
  ];
  for (const [q, min, want] of cases) assert.is(isQuestion(analyzeQuery(parseQuery(q), new Analyzer(), stop), min), want, q);
});

test('feedbackTerms: words of two pages or more by score share × word share × idf, never query terms, stop words or numbers; weights sum to weight × typed words', () => {
  const names = ['stash', 'git', 'aside', 'the', '2024', 'once', 'branch'];
  const page = (score: number, length: number, counts: [number, number][]): FeedbackPage => ({ score, length, terms: Uint32Array.from(counts, ([t]) => t), counts: Uint32Array.from(counts, ([, n]) => n) });
  const idfs: Record<string, number> = { stash: 3, git: 0.5, aside: 2, the: 0.1, '2024': 4, once: 5, branch: 1 };
  const terms = (pages: FeedbackPage[], n: number, weight = 0.1, typed = 4) =>
    [...feedbackTerms(pages, (t) => names[t]!, (t) => idfs[names[t]!]!, 5, new Set([names.indexOf('aside'), names.indexOf('the')]), { terms: n, weight }, typed)].map(([t, w]) => [t, Number(w.toFixed(4))]);
  const two = [page(10, 100, [[0, 5], [1, 20], [2, 3], [3, 30], [4, 2], [5, 1], [6, 4]]), page(10, 100, [[0, 5], [1, 20], [3, 30], [4, 2], [6, 4]])];
  const cases: [pages: FeedbackPage[], n: number, want: (string | number)[][]][] = [
    // stash 0.05 × 3 = 0.15, git 0.2 × 0.5 = 0.1, branch 0.04 × 1 = 0.04; `once` is on one page only, 2024 a number.
    [two, 3, [['stash', 0.2069], ['git', 0.1379], ['branch', 0.0552]]],
    [two, 1, [['stash', 0.4]]],
    // One page alone gives its own words.
    [[two[0]!], 7, [['stash', 0.1765], ['git', 0.1176], ['once', 0.0588], ['branch', 0.0471]]],
    // A page with no score share adds nothing to a word's mass.
    [[page(10, 100, [[1, 10], [6, 10]]), page(0, 10, [[0, 10], [1, 1], [6, 1]])], 5, [['branch', 0.2667], ['git', 0.1333]]],
    [[], 3, []],
  ];
  for (const [pages, n, want] of cases) assert.equal(terms(pages, n), want, JSON.stringify(want));
});

const ANSWER = 'http://127.0.6.70/git-stash.html';
const OTHER = 'http://127.0.6.76/worktree.html';
const about = (i: number) => ({
  url: `http://127.0.6.7${i}/guide-${i}.html`,
  title: `Working with changes ${i}`,
  text: `Unfinished work can be put aside before you switch to another line of work. Keep unfinished work aside with the stash, then switch. Chapter ${i} covers more.`,
});
const PAGES = [
  ...[1, 2, 3, 4, 5].map(about),
  { url: ANSWER, title: 'git-stash', text: 'Stash the changes in a dirty working directory away. The stash keeps each stash entry until you pop the stash or drop the stash. Work resumes after stash pop.' },
  { url: OTHER, title: 'git-worktree', text: 'Work trees: unfinished work in several working directories at once.' },
  ...[1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => ({ url: `http://127.0.6.8${i}/config-${i}.html`, title: `Configuration ${i}`, text: `Set the server port and the log level in the configuration file, section ${i}.` })),
];

test('search: a question\'s answer that uses the first pages\' other word rises above a page without it; the feedback pages gain nothing and keep their order', async () => {
  await withCrawlSnapshot(PAGES, (snap) => {
    const urls = (pages: string) => {
      const settings = searchSettings(Conf.load({ overrides: { 'searcher.feedback.pages': pages, 'searcher.feedback.weight': '3' } }));
      return search({ ...snap, settings }, { query: 'put my unfinished work aside', hitsPerSite: 0 }).hits.map((h) => h.doc.url);
    };
    const without = urls('0');
    const withFeedback = urls('5');
    assert.equal(without.slice(5), [OTHER, ANSWER]);
    assert.equal(withFeedback.slice(5), [ANSWER, OTHER]);
    assert.equal(withFeedback.slice(0, 5), without.slice(0, 5));
    // A keyword query gets none.
    const keywords = (pages: string) => search({ ...snap, settings: searchSettings(Conf.load({ overrides: { 'searcher.feedback.pages': pages, 'searcher.feedback.weight': '3' } })) }, { query: 'unfinished work', hitsPerSite: 0 }).hits.map((h) => h.doc.url);
    assert.equal(keywords('5'), keywords('0'));
  });
});

/** A run of copies of one page that holds the first pages' words (stash, keep, switch) but few of the question's. */
const copies = Array.from({ length: 6 }, (_, i) => ({
  url: `http://127.0.6.9${i}/stash-notes-${i}.html`,
  title: `Notes ${i}`,
  text: `Notes on the stash: stash, switch, keep, stash again; the stash keeps work for later. Stash notes page ${i}.`,
}));
const LATER = 'http://127.0.6.60/later.html';
const later = { url: LATER, title: 'Later', text: 'Set it aside for later, and get on with the rest.' };
const feedbackUrls = (snap: Parameters<Parameters<typeof withCrawlSnapshot>[1]>[0], pages: string) => {
  const settings = searchSettings(Conf.load({ overrides: { 'searcher.feedback.pages': pages, 'searcher.feedback.weight': '3' } }));
  return search({ ...snap, settings }, { query: 'put my unfinished work aside', hitsPerSite: 0, hitsPerPage: 20 }).hits.map((h) => h.doc.url);
};

test('search: of a run of near-copies below the feedback pages only the first gains: the others stay below a page they would all pass', async () => {
  await withCrawlSnapshot([...PAGES, ...copies, later], (snap) => {
    const without = feedbackUrls(snap, '0');
    assert.ok(without.indexOf(LATER) < without.indexOf(copies[0]!.url), 'the copies rank below the page without feedback');
    const withFeedback = feedbackUrls(snap, '5');
    const above = copies.filter((c) => withFeedback.indexOf(c.url) < withFeedback.indexOf(LATER)).map((c) => c.url);
    assert.equal(above, [copies[0]!.url]);
  });
});

test('search: the feedback pages are chosen distinct: when the first pages are copies of one page, its words are one page\'s, and lift none below', async () => {
  const same = [1, 2, 3, 4, 5].map((i) => ({ ...about(i), title: 'Working with changes', text: about(i).text.replace(/Chapter \d+/, 'The next chapter') }));
  await withCrawlSnapshot([...same, ...PAGES.slice(5), ...copies, later], (snap) => {
    assert.equal(feedbackUrls(snap, '5'), feedbackUrls(snap, '0'));
  });
});

test.run();

/** The pages "did you mean" looks in: forms counted as from the analyzer's tokens, each page read once while kept. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Analyzer } from '../../shared/analysis/analyzer.js';
import { PageForms, SpellingPages } from '../../searcher/spell-pages.js';

const analyzer = new Analyzer({ stemEnglish: true });
const TEXTS = [
  'Rebased branches: after you rebased, rebase again. REBASE rebases',
  'use readFile, not readfile or async_for_stmt; async def, asyncio and AsyncIO',
  'Window functions: a window, windows and the Windows window manager',
  '',
];

/** The forms of `term` among the first `within` tokens of `text`, whole words only, straight from the analyzer. */
function formsByTokens(text: string, term: string, within: number): Map<string, number> {
  const seen = new Map<string, number>();
  for (const t of analyzer.tokens(text, within)) if (t.term === term && !t.part) seen.set(text.slice(t.start, t.end), (seen.get(text.slice(t.start, t.end)) ?? 0) + 1);
  return seen;
}
const sorted = (m: Map<string, number>) => [...m].sort((a, b) => (a[0] < b[0] ? -1 : 1));

test('a page counts the forms of a term among its first tokens as its tokens show them', () => {
  for (const text of TEXTS) {
    const page = new PageForms(analyzer, text, 1000);
    assert.is(page.count, analyzer.tokens(text).length);
    const terms = [...new Set(analyzer.tokens(text).map((t) => t.term)), 'absent'];
    for (const term of terms)
      for (const within of [0, 1, 2, 3, 5, 8, 13, 1000]) {
        const seen = new Map<string, number>();
        page.addForms(term, within, seen);
        assert.equal(sorted(seen), sorted(formsByTokens(text, term, within)), `${term} within ${within} of "${text.slice(0, 20)}"`);
      }
  }
});

test('a page read to fewer tokens holds only those', () => {
  const page = new PageForms(analyzer, TEXTS[0]!, 3);
  assert.is(page.count, 3);
  const seen = new Map<string, number>();
  page.addForms(analyzer.terms('rebase')[0]!, 1000, seen);
  assert.equal(sorted(seen), [['Rebased', 1]], 'Rebased branches: after');
});

test('pages are read once while kept, the least recently looked in dropped past the bound', () => {
  const reads: number[] = [];
  const weight = (id: number) => new PageForms(analyzer, TEXTS[id]!, 1000).weight;
  // Room for page 0 and one of 1 and 2.
  const pages = new SpellingPages(analyzer, (id) => (reads.push(id), TEXTS[id]!), 1000, weight(0) + Math.max(weight(1), weight(2)));
  for (const id of [0, 1, 0, 1, 0]) pages.page(id);
  assert.equal(reads, [0, 1]);
  pages.page(2); // drops 1, looked in less lately than 0
  pages.page(0);
  assert.equal(reads, [0, 1, 2]);
  pages.page(1);
  assert.equal(reads, [0, 1, 2, 1]);
});

test.run();

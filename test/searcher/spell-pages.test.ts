/** The pages a respelt query looks in: each read once, its tokens as the analyzer's, found again only when more are asked for. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Analyzer } from '../../shared/analysis/analyzer.js';
import { SpellingPages } from '../../searcher/spell-pages.js';

const analyzer = new Analyzer({ stemEnglish: true });
const TEXTS = ['Rebased branches: after you rebased, rebase again.', 'use readFile, not readfile or async_for_stmt', ''];

test('tokens as the analyzer finds them, for any run of sizes asked for', () => {
  let tokenized = 0;
  const counting = { tokens: (text: string, max: number) => (tokenized++, analyzer.tokens(text, max)) };
  const pages = new SpellingPages(counting, (id) => TEXTS[id]!);
  const SIZES = [3, 1, 5, 5, 100, 2, 1000, 7];
  for (const id of [0, 1, 2])
    for (const max of SIZES) assert.equal(pages.tokens(pages.text(id), max), analyzer.tokens(TEXTS[id]!, max), `page ${id}, ${max} tokens`);
  // Per text: the first ask, then only asks for more than were asked before while the text had more (3, 5, 100; 1000 not: 100 found it all).
  assert.is(tokenized, 3 + 3 + 1);
});

test('a page is read once however often its text is asked for', () => {
  const reads: number[] = [];
  const pages = new SpellingPages(analyzer, (id) => (reads.push(id), TEXTS[id]!));
  for (const id of [0, 1, 0, 0, 1]) assert.is(pages.text(id), TEXTS[id]);
  assert.equal(reads, [0, 1]);
});

test.run();

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { factorLine, parseTryArgs } from './devweb-try.js';

test('devweb-try: the crawl, then -i index and -s searcher properties, values may hold = and spaces', () => {
  assert.equal(parseTryArgs(['crawl', '-i', 'indexer.max.tokens=0', '-s', 'searcher.bm25f.k1=1.5', '-s', 'searcher.stopwords=a b=c']), {
    crawl: 'crawl',
    index: { 'indexer.max.tokens': '0' },
    search: { 'searcher.bm25f.k1': '1.5', 'searcher.stopwords': 'a b=c' },
    explain: false,
  });
  assert.equal(parseTryArgs(['-s', 'x=1', 'c']), { crawl: 'c', index: {}, search: { x: '1' }, explain: false });
  assert.equal(parseTryArgs(['c', '-x']), { crawl: 'c', index: {}, search: {}, explain: true });
});

test('devweb-try: a flag without name=value, a second directory or none at all is refused, naming it', () => {
  for (const [args, msg] of [
    [['c', '-i'], /-i needs name=value, not nothing/],
    [['c', '-s', 'k1'], /-s needs name=value, not k1/],
    [['c', 'd'], /unexpected argument d/],
    [['-i', 'a=b'], /no crawl directory/],
  ] as const)
    assert.throws(() => parseTryArgs([...args]), msg);
});

test('devweb-try: the factors of a miss on one line, each term with its frequency per field, a term the page lacks as 0', () => {
  const field = (tf: number) => ({ tf, length: 100, avgLength: 100, normalised: tf });
  const cases: [Parameters<typeof factorLine>[0], string][] = [
    [
      {
        score: 14.0123,
        bm25f: 11.59,
        sectionLift: 1,
        proximity: 0.7,
        linkPrior: 0.7277,
        terms: [
          { term: 'get', idf: 1.8, tf: 0, score: 0, fields: {} },
          { term: 'insert', idf: 2.3, tf: 5, score: 4.34, fields: { heading: field(1), content: field(20) } },
        ],
      },
      '14.01 = bm25f 11.59 + section 1.00 + proximity 0.70 + link 0.73 | get 0.0 · insert 4.3 (heading 1, content 20)',
    ],
    [{ score: 0.5, bm25f: 0, sectionLift: 0, proximity: 0, linkPrior: 0.5, terms: [] }, '0.50 = bm25f 0.00 + section 0.00 + proximity 0.00 + link 0.50 | '],
    [{ score: 4.5, bm25f: 2, sectionLift: 0, proximity: 0, naming: 2, linkPrior: 0.5, terms: [] }, '4.50 = bm25f 2.00 + section 0.00 + proximity 0.00 + naming 2.00 + link 0.50 | '],
  ];
  for (const [e, want] of cases) assert.is(factorLine(e), want);
});

test.run();

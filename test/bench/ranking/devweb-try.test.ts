import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseTryArgs } from './devweb-try.js';

test('devweb-try: the crawl, then -i index and -s searcher properties, values may hold = and spaces', () => {
  assert.equal(parseTryArgs(['crawl', '-i', 'indexer.max.tokens=0', '-s', 'searcher.bm25f.k1=1.5', '-s', 'searcher.stopwords=a b=c']), {
    crawl: 'crawl',
    index: { 'indexer.max.tokens': '0' },
    search: { 'searcher.bm25f.k1': '1.5', 'searcher.stopwords': 'a b=c' },
  });
  assert.equal(parseTryArgs(['-s', 'x=1', 'c']), { crawl: 'c', index: {}, search: { x: '1' } });
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

test.run();

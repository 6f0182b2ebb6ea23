/** Hits per site: a table over ranked lists. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { groupBySite } from '../../searcher/group.js';

const ranked = (sites: string) => [...sites].map((s, i) => ({ id: i, score: 100 - i, site: s }));
const ids = (h: { id: number }[]) => h.map((x) => x.id);

const CASES: [name: string, sites: string, perSite: number, start: number, count: number, page: number[], shown: number, hidden: number, more: string, next: boolean][] = [
  ['no grouping', 'aaab', 0, 0, 10, [0, 1, 2, 3], 4, 0, '', false],
  ['two per site', 'aaab', 2, 0, 10, [0, 1, 3], 3, 1, 'a', false],
  ['one per site', 'aabbc', 1, 0, 10, [0, 2, 4], 3, 2, 'ab', false],
  ['paging after grouping', 'aaabbbccc', 2, 2, 2, [3, 4], 6, 3, 'abc', true],
  ['last page', 'aaabbbccc', 2, 4, 2, [6, 7], 6, 3, 'abc', false],
  ['start past the end', 'ab', 2, 10, 10, [], 2, 0, '', false],
  ['next page exists exactly when one more hit is kept', 'abc', 2, 0, 2, [0, 1], 3, 0, '', true],
];

for (const [name, sites, perSite, start, count, page, shown, hidden, more, next] of CASES)
  test(name, () => {
    const g = groupBySite(ranked(sites), perSite, start, count);
    assert.equal(ids(g.hits), page);
    assert.is(g.shown, shown);
    assert.is(g.hidden, hidden);
    assert.equal([...g.sitesWithMore].sort().join(''), more);
    assert.is(g.hasNext, next);
  });

test.run();

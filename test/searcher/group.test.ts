/** Hits per site: a table over ranked lists (upper case: holds every word; lower case: a partial match). */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { groupBySite } from '../../searcher/group.js';

const ranked = (sites: string) => [...sites].map((s, i) => ({ id: i, score: 100 - i, site: s.toLowerCase(), full: s !== s.toLowerCase() }));
/** Display order; `>` marks a hit listed under its site's first hit. */
const shown = (hits: { hit: { id: number }; grouped: boolean }[]) => hits.map((p) => `${p.grouped ? '>' : ''}${p.hit.id}`).join(' ');

const CASES: [name: string, sites: string, perSite: number, start: number, count: number, page: string, shown: number, hidden: number, more: string, next: boolean][] = [
  ['no grouping asked', 'AAAB', 0, 0, 10, '0 1 2 3', 4, 0, '', false],
  ['one site in the results: nothing grouped, nothing hidden', 'AAAA', 2, 0, 10, '0 1 2 3', 4, 0, '', false],
  ['a site\'s second hit listed under its first, the third hidden', 'ABAA', 2, 0, 10, '0 >2 1', 3, 1, 'a', false],
  ['one per site', 'AABBC', 1, 0, 10, '0 2 4', 3, 2, 'ab', false],
  ['full matches are not hidden while partial matches rank below them', 'AAAAbc', 2, 0, 10, '0 >1 >2 >3 4 5', 6, 0, '', false],
  ['a partial match is not lifted over a full match of another site', 'ABa', 2, 0, 10, '0 1 2', 3, 0, '', false],
  ['a partial match joins its site when no full match is passed', 'Aba', 2, 0, 10, '0 >2 1', 3, 0, '', false],
  ['a full match joins its site over a partial match', 'AbA', 2, 0, 10, '0 >2 1', 3, 0, '', false],
  ['a partial match past the limit is hidden', 'AbAa', 2, 0, 10, '0 >2 1', 3, 1, 'a', false],
  ['paging after grouping', 'AAABBBCCC', 2, 2, 2, '3 >4', 6, 3, 'abc', true],
  ['a page starting inside a group starts unindented', 'AAABBBCCC', 2, 1, 2, '1 3', 6, 3, 'abc', true],
  ['last page', 'AAABBBCCC', 2, 4, 2, '6 >7', 6, 3, 'abc', false],
  ['start past the end', 'AB', 2, 10, 10, '', 2, 0, '', false],
  ['next page exists exactly when one more hit is kept', 'ABC', 2, 0, 2, '0 1', 3, 0, '', true],
];

test('the best keepTop hits of the plain ranking are never hidden, only listed under their site', () => {
  const g = groupBySite(ranked('AAAABA'), 2, 0, 10, 3);
  assert.is(shown(g.hits), '0 >1 >2 4');
  assert.is(g.hidden, 2);
});

for (const [name, sites, perSite, start, count, page, total, hidden, more, next] of CASES)
  test(name, () => {
    const g = groupBySite(ranked(sites), perSite, start, count);
    assert.is(shown(g.hits), page);
    assert.is(g.shown, total);
    assert.is(g.hidden, hidden);
    assert.equal([...g.sitesWithMore].sort().join(''), more);
    assert.is(g.hasNext, next);
  });

test.run();

/** Hits per site: a table over ranked lists (upper case: holds every word; lower case: a partial match). */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { groupBySite, groupHead, type SiteCount } from '../../searcher/group.js';
import { rng } from '../fixtures/rng.js';

const ranked = (sites: string) => [...sites].map((s, i) => ({ id: i, score: 100 - i, site: s.toLowerCase(), full: s !== s.toLowerCase() }));
/** Display order; `>` marks a hit listed under its site's first hit. */
const shown = (hits: { hit: { id: number }; grouped: boolean }[]) => hits.map((p) => `${p.grouped ? '>' : ''}${p.hit.id}`).join(' ');

const CASES: [name: string, sites: string, perSite: number, start: number, count: number, page: string, shown: number, hidden: number, more: string, next: boolean][] = [
  ['no grouping asked', 'AAAB', 0, 0, 10, '0 1 2 3', 4, 0, '', false],
  ['one site in the results: nothing grouped, nothing hidden', 'AAAA', 2, 0, 10, '0 1 2 3', 4, 0, '', false],
  ['a site\'s second hit listed under its first, the third hidden', 'ABAA', 2, 0, 10, '0 >2 1', 3, 1, 'a', false],
  ['one per site', 'AABBC', 1, 0, 10, '0 2 4', 3, 2, 'ab', false],
  ['full matches past the limit are hidden though partial matches rank below them (ranked by score, as Nutch kept the best of a site)', 'AAAAbc', 2, 0, 10, '0 >1 4 5', 4, 2, 'a', false],
  ['a site\'s full matches far below are not lifted over another site\'s better partial match', 'AbAAAAAAAAAc', 2, 0, 10, '0 >2 1 11', 4, 8, 'a', false],
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

/** Each site's full and partial matches in a ranked list. */
function siteCounts(list: ReturnType<typeof ranked>): Map<string, SiteCount> {
  const m = new Map<string, SiteCount>();
  for (const h of list) {
    const c = m.get(h.site) ?? m.set(h.site, { full: 0, partial: 0 }).get(h.site)!;
    if (h.full) c.full++;
    else c.partial++;
  }
  return m;
}

test('grouping the head of a list with its sites counts: the whole list\'s page, or undecided', () => {
  const rand = rng(5);
  let decidedEarly = 0;
  let undecided = 0;
  for (let round = 0; round < 3000; round++) {
    const n = 1 + Math.floor(rand() * 30);
    const letters = 'abcde'.slice(0, 1 + Math.floor(rand() * 5));
    const partialShare = rand() < 0.4 ? 0 : rand();
    const sites = Array.from({ length: n }, () => {
      const s = letters[Math.floor(rand() * letters.length)]!;
      return rand() < partialShare ? s : s.toUpperCase();
    }).join('');
    const list = ranked(sites);
    const [perSite, start, count, keepTop] = [Math.floor(rand() * 3), Math.floor(rand() * 6), 1 + Math.floor(rand() * 5), Math.floor(rand() * 4)];
    const whole = groupBySite(list, perSite, start, count, keepTop);
    const show = (g: NonNullable<ReturnType<typeof groupHead>>) => [shown(g.hits), g.shown, g.hidden, [...g.sitesWithMore].sort().join(''), g.hasNext];
    for (let k = 0; k <= n; k++) {
      const g = groupHead(list.slice(0, k), siteCounts(list), perSite, start, count, keepTop);
      if (k === n) assert.ok(g, `${sites}: the whole list decides`);
      if (!g) {
        undecided++;
        continue;
      }
      if (k < n) decidedEarly++;
      assert.equal(show(g), show(whole), `${sites} head ${k} perSite ${perSite} start ${start} count ${count} keepTop ${keepTop}`);
    }
  }
  assert.ok(decidedEarly > 1000 && undecided > 1000, `${decidedEarly} heads decided before the end, ${undecided} not`);
});

test.run();

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { baselineWins, firstJudged, readRanking } from './baseline-wins.js';

test('baseline-wins: the first judged URL of the top 10, 0 when none is', () => {
  const cases: [string[], string[], number][] = [
    [['a', 'b', 'c'], ['b'], 2],
    [['a', 'b', 'c'], ['c', 'a'], 1],
    [['a', 'b'], ['x'], 0],
    [[], ['x'], 0],
    [[...'0123456789'].map((d) => `u${d}`).concat('x'), ['x'], 0],
  ];
  for (const [urls, relevant, want] of cases) assert.is(firstJudged(urls, relevant), want, `${urls} / ${relevant}`);
});

test('baseline-wins: a results file read as each query in rank order, whatever the line order; malformed lines skipped', () => {
  const r = readRanking('q one\t2\thttp://b\nq two\t1\thttp://c\nq one\t1\thttp://a\n\nbroken line\nq one\tx\thttp://z\n');
  assert.equal([...r.entries()], [
    ['q two', ['http://c']],
    ['q one', ['http://a', 'http://b']],
  ]);
});

test('baseline-wins: only baselines ranking a judged page strictly above hazelnut, best first', () => {
  const cases: [number, Record<string, number>, { engine: string; rank: number }[]][] = [
    [3, { omega: 2, htdig: 1, other: 3 }, [{ engine: 'htdig', rank: 1 }, { engine: 'omega', rank: 2 }]],
    [1, { omega: 1, htdig: 2 }, []],
    [0, { omega: 0, htdig: 7 }, [{ engine: 'htdig', rank: 7 }]],
    [5, { omega: 0 }, []],
    [4, { b: 2, a: 2 }, [{ engine: 'a', rank: 2 }, { engine: 'b', rank: 2 }]],
  ];
  for (const [ours, theirs, want] of cases) assert.equal(baselineWins(ours, theirs), want, `${ours} ${JSON.stringify(theirs)}`);
});

test.run();

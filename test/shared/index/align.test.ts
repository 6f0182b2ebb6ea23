import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { align8 } from '../../../shared/index/format.js';

// Column offsets of a merged index past 2 GiB (a million pages' forward index) must not wrap as 32-bit integers.
test('align8 rounds up to a multiple of 8, past 2 and 4 GiB too', () => {
  const cases: [number, number][] = [
    [0, 0],
    [1, 8],
    [8, 8],
    [9, 16],
    [2 ** 31 - 1, 2 ** 31],
    [2 ** 31 + 1, 2 ** 31 + 8],
    [2 ** 32 + 3, 2 ** 32 + 8],
    [6_300_000_001, 6_300_000_008],
  ];
  for (const [n, want] of cases) assert.is(align8(n), want, `align8(${n})`);
});

test.run();

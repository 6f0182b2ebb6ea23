import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { align8 } from '../../../shared/index/format.js';
import { checkShape } from '../../../shared/index/forward-writer.js';

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

// Run starts and entry numbers are 32-bit columns: an index past them is refused by name, not written wrapped.
test('an index whose entries or run bytes pass 32 bits is refused, naming what and where', () => {
  const ok = { entries: 1_040_000_000, posBytes: 4_120_000_000, secBytes: 4_030_000_000 };
  checkShape(ok, '/crawl/index/000002');
  const cases: [Partial<typeof ok>, RegExp][] = [
    [{ entries: 2 ** 32 }, /4294967296 entries/],
    [{ posBytes: 2 ** 32 + 5 }, /4294967301 bytes of positions/],
    [{ secBytes: 5e9 }, /5000000000 bytes of sections/],
  ];
  for (const [over, message] of cases) {
    assert.throws(() => checkShape({ ...ok, ...over }, '/crawl/index/000002'), (e: Error) => message.test(e.message) && e.message.includes('/crawl/index/000002') && e.message.includes('-shards'));
  }
});

test.run();

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { align8 } from '../../../shared/index/format.js';
import { checkShape } from '../../../shared/index/forward-writer.js';
import { PAGE_BYTES, pageOf } from '../../../shared/index/paged.js';

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

// Entry and section numbers are 32-bit columns: an index past them is refused by name, not written wrapped; runs of any size are not.
test('an index whose entries or sections pass 32 bits is refused, naming what and where; positions and section runs past 4 GiB are not', () => {
  const ok = { entries: 1_040_000_000, sectionCount: 30_000_000, posBits: 7e10, secBytes: 5e9 };
  checkShape(ok, '/crawl/index/000002');
  const cases: [Partial<typeof ok>, RegExp][] = [
    [{ entries: 2 ** 32 }, /4294967296 entries/],
    [{ sectionCount: 2 ** 32 + 5 }, /4294967301 sections/],
  ];
  for (const [over, message] of cases) {
    assert.throws(() => checkShape({ ...ok, ...over }, '/crawl/index/000002'), (e: Error) => message.test(e.message) && e.message.includes('/crawl/index/000002') && e.message.includes('-shards'));
  }
});

// A file of a million pages' positions passes 4 GiB: its pages are numbered past what a 32-bit shift keeps.
test('pageOf numbers the pages of files past 4 GiB', () => {
  const cases: [number, number][] = [
    [0, 0],
    [PAGE_BYTES - 1, 0],
    [PAGE_BYTES, 1],
    [2 ** 32 - 1, 2 ** 20 - 1],
    [2 ** 32, 2 ** 20],
    [2 ** 32 + 3 * PAGE_BYTES + 5, 2 ** 20 + 3],
    [6_300_000_001, Math.floor(6_300_000_001 / PAGE_BYTES)],
  ];
  for (const [off, want] of cases) assert.is(pageOf(off), want, `pageOf(${off})`);
});

test.run();

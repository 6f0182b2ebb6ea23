import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { VarintReader, VarintWriter } from '../../segments/varints.js';

test('varints read in turn, and damage read as -1', () => {
  const cases: [number[], number[]][] = [
    [[0x00], [0]],
    [[0x7f], [127]],
    [[0x80, 0x01], [128]],
    [[0xac, 0x02, 0x05], [300, 5]],
    [[0xff, 0xff, 0xff, 0xff, 0x0f], [2 ** 32 - 1]],
    // Cut off by the record's end.
    [[0x05, 0x80], [5, -1]],
    // Longer than 35 bits.
    [[0x80, 0x80, 0x80, 0x80, 0x80, 0x01], [-1]],
  ];
  for (const [bytes, want] of cases) {
    const r = new VarintReader(Uint8Array.from(bytes));
    assert.equal(want.map(() => r.next()), want, bytes.join(' '));
  }
});

test('where the reader stands, and what is left', () => {
  const r = new VarintReader(Uint8Array.from([0xac, 0x02, 0x07, 0x09]));
  assert.is(r.left, 4);
  r.next();
  assert.is(r.at, 2);
  assert.is(r.left, 2);
  r.next();
  r.next();
  assert.is(r.left, 0);
  assert.is(r.next(), -1);
});

test('what the writer writes, the reader reads back, past its first buffer', () => {
  const values = [0, 1, 127, 128, 300, 2 ** 21, 2 ** 32 - 1];
  const w = new VarintWriter();
  for (let k = 0; k < 100; k++) for (const v of values) w.push(v);
  const r = new VarintReader(w.bytes());
  const read: number[] = [];
  while (r.left > 0) read.push(r.next());
  assert.equal(read, Array.from({ length: 100 }, () => values).flat());
});

test.run();

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { VarintReader } from '../../segments/varints.js';

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

test.run();

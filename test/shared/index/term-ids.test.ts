import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { packedId, termBits, TermPacker } from '../../../shared/index/term-ids.js';

test('termBits: the bits of the largest id of a dictionary, at least one', () => {
  for (const [terms, bits] of [
    [0, 1],
    [1, 1],
    [2, 1],
    [3, 2],
    [4, 2],
    [5, 3],
    [4692, 13],
    [8192, 13],
    [8193, 14],
    [2 ** 32, 32],
  ] as const)
    assert.is(termBits(terms), bits, `${terms} terms`);
});

test('TermPacker and packedId: ids packed in runs read back, at every width, across word boundaries', () => {
  for (const bits of [1, 3, 7, 13, 16, 21, 31, 32]) {
    const max = bits === 32 ? 0xffffffff : 2 ** bits - 1;
    const ids = Uint32Array.from({ length: 101 }, (_, i) => (i % 5 === 0 ? max : (i * 2654435761) % (max + 1)));
    const words: number[] = [];
    const p = new TermPacker(bits, (w) => words.push(...w));
    // Runs of uneven lengths, as documents come.
    for (const [a, b] of [[0, 1], [1, 33], [33, 34], [34, 101]] as const) p.append(ids.subarray(a, b));
    p.close();
    assert.is(words.length, Math.ceil((101 * bits) / 32), `${bits} bits: words`);
    const got = Array.from(ids, (_, e) => packedId((i) => words[i]!, e, bits));
    assert.equal(got, Array.from(ids), `${bits} bits`);
  }
});

test('TermPacker: an id wider than the width is refused', () => {
  const p = new TermPacker(4, () => {});
  assert.throws(() => p.append(Uint32Array.of(3, 16)), /16 does not fit 4 bits/);
});

test.run();

/**
 * A block's postings looked up at a few places (decodePlaces, what a
 * search's pool reads of a common term's blocks) have the frequencies the
 * whole block decodes to, at every width, without the block's frequencies
 * being unpacked.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BLOCK, blockBuffers, decodeBlock, decodePlaces, encodeBlock, MAX_BLOCK_WORDS } from '../../../shared/index/postings-codec.js';
import { FIELDS } from '../../../shared/index/types.js';
import { rng } from '../../fixtures/rng.js';

test('postings codec: frequencies at chosen places are those of the whole block, at every width', () => {
  const rnd = rng(11);
  for (let round = 0; round < 200; round++) {
    const n = 1 + Math.floor(rnd() * BLOCK);
    // Widths from none (every gap 0, a field the term is absent from) to 32 bits.
    const span = 2 ** Math.floor(rnd() * 33);
    const b = blockBuffers();
    b.n = n;
    const prev = Math.floor(rnd() * 1000) - 1;
    for (let i = 0, d = prev; i < n; i++) b.docs[i] = d = Math.min(0xffffffff - (n - i), d + 1 + Math.floor(rnd() * Math.min(span, 2 ** 24)));
    b.tf.forEach((col, f) => col.fill(0).set(Array.from({ length: n }, () => (f === round % FIELDS.length ? 0 : Math.floor(rnd() * Math.min(span, 65536))))));
    const words = Uint32Array.of(7, ...encodeBlock(b, prev));
    const whole = blockBuffers();
    assert.is(decodeBlock(words, 1, prev, whole), n);
    const places = Array.from({ length: n }, (_, i) => i).filter(() => rnd() < 0.3);
    const out = blockBuffers();
    decodePlaces(words, 1, places, places.length, out);
    for (let f = 0; f < FIELDS.length; f++) assert.equal([...out.tf[f]!.subarray(0, places.length)], places.map((p) => whole.tf[f]![p]!), `round ${round}: ${FIELDS[f]}`);
  }
});

test('postings codec: a block encoded into a reused array is the block encoded afresh, whatever the array held', () => {
  // [postings, the first document, the gap between documents, a frequency in each field (0: absent)]
  const cases: [number, number, number, number[]][] = [
    [1, 0, 1, [1, 0, 0, 0, 0]],
    [3, 5, 2, [0, 0, 2, 0, 0]],
    [BLOCK, 0, 1, [1, 1, 1, 1, 1]],
    [BLOCK, 1000, 0x7fff, [0xffff, 0, 0xffff, 3, 0]],
    [BLOCK, 0, 2 ** 24, [0xffff, 0xffff, 0xffff, 0xffff, 0xffff]],
    [17, 4_000_000_000, 1, [0, 9, 0, 0, 0]],
  ];
  const into = new Uint32Array(MAX_BLOCK_WORDS);
  for (const [n, first, gap, tfs] of cases) {
    const b = blockBuffers();
    b.n = n;
    for (let i = 0; i < n; i++) b.docs[i] = first + i * gap;
    b.tf.forEach((col, f) => col.fill(tfs[f]!, 0, n));
    const prev = first >= gap ? first - gap : -1;
    const fresh = encodeBlock(b, prev);
    into.fill(0xffffffff);
    const reused = encodeBlock(b, prev, into);
    const label = `${n} postings from ${first} every ${gap}`;
    assert.is(reused.buffer, into.buffer, label);
    assert.equal([...reused], [...fresh], label);
    const back = blockBuffers();
    assert.is(decodeBlock(reused, 0, prev, back), n, label);
    assert.equal([...back.docs.subarray(0, n)], [...b.docs.subarray(0, n)], label);
    for (let f = 0; f < FIELDS.length; f++) assert.equal([...back.tf[f]!.subarray(0, n)], [...b.tf[f]!.subarray(0, n)], `${label}: ${FIELDS[f]}`);
  }
});

test.run();

/**
 * A block's postings looked up at a few places (decodePlaces, what a
 * search's pool reads of a common term's blocks) have the frequencies the
 * whole block decodes to, at every width, without the block's frequencies
 * being unpacked.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BLOCK, blockBuffers, decodeBlock, decodePlaces, encodeBlock } from '../../../shared/index/postings-codec.js';
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

test.run();

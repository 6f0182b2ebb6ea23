/**
 * Deflate against dictionaries with kept streams (segments/dictionary-deflate.js):
 * the bytes are zlib.deflateSync's, body after body and host after host, with
 * streams evicted and made again, an output larger than the buffer it starts
 * with, and after close(); each inflates back with its dictionary.
 */
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { dictionaryDeflate } from '../../segments/dictionary-deflate.js';

const words = (seed: number, n: number) => {
  let x = seed;
  // A small linear congruential generator: the same pages every run.
  const next = () => (x = (x * 1_103_515_245 + 12_345) % 2 ** 31);
  return Array.from({ length: n }, () => `w${next() % 5000}`).join(' ');
};
/** Page `p` of host `h`: a template of its host around words of its own. */
const page = (h: number, p: number) => Buffer.from(`<html><nav>${words(h, 300)}</nav><main>${words(h * 1000 + p, 1500 + ((p * 37) % 800))}</main></html>`);
const dicts = Array.from({ length: 5 }, (_, h) => Buffer.from(page(h, 0).subarray(-32_768)));

const LEVEL = 4;
const expected = (body: Uint8Array, dict: Uint8Array) => zlib.deflateSync(body, { level: LEVEL, dictionary: dict });

const cases: [string, number, [host: number, body: Buffer][]][] = [
  ['one host, many bodies: one stream reset between them', 4, Array.from({ length: 40 }, (_, p) => [0, page(0, p + 1)])],
  ['five hosts in turn, streams for all five', 8, Array.from({ length: 50 }, (_, i) => [i % 5, page(i % 5, i + 1)])],
  ['five hosts in turn over two streams: each body evicts one and makes another', 2, Array.from({ length: 50 }, (_, i) => [i % 5, page(i % 5, i + 1)])],
  ['an empty body and a one-byte body', 2, [[1, Buffer.alloc(0)], [1, Buffer.from('x')], [2, Buffer.alloc(0)]]],
  ['a body whose deflate outgrows the first output buffer (random bytes, 300 KB), then a small one', 2, [[3, crypto.randomBytes(300_000)], [3, page(3, 9)], [4, crypto.randomBytes(70_000)]]],
];

for (const [name, kept, bodies] of cases)
  test(`the same bytes as deflateSync: ${name}`, () => {
    const { deflate, close } = dictionaryDeflate(LEVEL, kept);
    for (const [h, body] of bodies) {
      const out = Buffer.from(deflate(body, dicts[h]!));
      assert.ok(out.equals(expected(body, dicts[h]!)), `host ${h}, a body of ${body.length} bytes`);
      assert.ok(zlib.inflateSync(out, { dictionary: dicts[h]! }).equals(body));
    }
    close();
  });

test('the result is a view the next call overwrites; after close() new streams give the same bytes', () => {
  const { deflate, close } = dictionaryDeflate(LEVEL, 2);
  const a = page(0, 1);
  const b = page(1, 2);
  const first = deflate(a, dicts[0]!);
  const kept = Buffer.from(first);
  deflate(b, dicts[1]!);
  assert.not.ok(first.equals(kept), 'the first view now shows the second body');
  close();
  assert.ok(Buffer.from(deflate(a, dicts[0]!)).equals(kept));
  close();
});

test.run();

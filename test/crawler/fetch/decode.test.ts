/** readBody's decoding rules, case by case: what is kept, what is flagged truncated, what fails, whatever the chunking. */
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { HttpFailure, readBody } from '../../../crawler/fetch/http.js';

const CAP = 4096;
/** Text that compresses about 3:1, so a body over the cap still has its wire bytes under it. */
const text = (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => String.fromCharCode(97 + ((i * 7919) % 26) * ((i >> 3) % 2))).join(''));
/** Bytes that do not compress: their gzip is longer than they are. */
function noise(n: number): Buffer {
  const b = Buffer.alloc(n);
  for (let i = 0, x = 1; i < n; i++) b[i] = (x = Math.imul(x, 1103515245) + 12345) >>> 24;
  return b;
}

const ENCODERS: Record<string, (b: Buffer) => Buffer> = { gzip: zlib.gzipSync, deflate: zlib.deflateSync, br: zlib.brotliCompressSync };

/** Splits the wire bytes into chunks of `size`, as a socket would hand them over. */
function wire(bytes: Buffer, size: number): Readable {
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
  return Readable.from(chunks);
}

type Want = { body: Buffer; truncated: boolean } | { fails: RegExp };
const cases: { name: string; encoding: string; bytes: Buffer; want: Want }[] = [];
for (const [enc, encode] of Object.entries(ENCODERS)) {
  cases.push(
    { name: `${enc}: a page under the cap`, encoding: enc, bytes: encode(text(3000)), want: { body: text(3000), truncated: false } },
    { name: `${enc}: a page exactly at the cap`, encoding: enc, bytes: encode(text(CAP)), want: { body: text(CAP), truncated: false } },
    { name: `${enc}: a page one byte over the cap`, encoding: enc, bytes: encode(text(CAP + 1)), want: { body: text(CAP), truncated: true } },
    { name: `${enc}: a bomb`, encoding: enc, bytes: encode(Buffer.alloc(4 << 20)), want: { body: Buffer.alloc(CAP), truncated: true } },
    { name: `${enc}: wire bytes over the cap`, encoding: enc, bytes: encode(noise(3 * CAP)), want: { body: noise(CAP), truncated: true } },
    { name: `${enc}: cut off before the cap`, encoding: enc, bytes: encode(noise(2000)).subarray(0, 1000), want: { fails: /cannot decode/ } },
    { name: `${enc}: cut off after the cap`, encoding: enc, bytes: encode(noise(3 * CAP)).subarray(0, 2 * CAP), want: { body: noise(CAP), truncated: true } },
  );
}
cases.push(
  { name: 'gzip: two members', encoding: 'gzip', bytes: Buffer.concat([zlib.gzipSync('ab'), zlib.gzipSync('cd')]), want: { body: Buffer.from('abcd'), truncated: false } },
  { name: 'x-gzip is gzip', encoding: 'x-gzip', bytes: zlib.gzipSync('ab'), want: { body: Buffer.from('ab'), truncated: false } },
  { name: 'gzip: not gzip at all', encoding: 'gzip', bytes: Buffer.from('not gzip at all'), want: { fails: /cannot decode gzip body: incorrect header check/ } },
  { name: 'gzip: an empty body', encoding: 'gzip', bytes: Buffer.alloc(0), want: { fails: /cannot decode gzip body: unexpected end of file/ } },
  { name: 'gzip over br', encoding: 'br, gzip', bytes: zlib.gzipSync(zlib.brotliCompressSync(text(CAP + 1))), want: { body: text(CAP), truncated: true } },
  { name: 'an unknown encoding', encoding: 'zstd', bytes: Buffer.from('x'), want: { fails: /unsupported Content-Encoding zstd/ } },
);

for (const c of cases)
  test(c.name, async () => {
    for (const size of [c.bytes.length || 1, 1000, 333]) {
      const got = await readBody(wire(c.bytes, size), c.encoding, CAP).catch((e: unknown) => e);
      const what = `${c.name}, chunks of ${size}`;
      if ('fails' in c.want) {
        assert.instance(got, HttpFailure, what);
        assert.match((got as Error).message, c.want.fails, what);
        continue;
      }
      assert.not.instance(got, Error, `${what}: ${(got as Error).message}`);
      const r = got as Awaited<ReturnType<typeof readBody>>;
      assert.is(r.truncated, c.want.truncated, what);
      assert.ok(r.body.equals(c.want.body), `${what}: ${r.body.length} bytes, want ${c.want.body.length}`);
      if (!r.truncated) assert.is(r.wireBytes, c.bytes.length, what);
    }
  });

test.run();

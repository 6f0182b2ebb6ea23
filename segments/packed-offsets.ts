/**
 * @module segments/packed-offsets
 * The word offsets (segments/offsets.ts) as summaries files tagged 'HSM2',
 * written by older hazelnut, hold them: each token's start as a step from
 * the last one's and its length, in LEB128 varints, then the classes,
 * brotli-compressed together. A summary unpacks the record into the fixed
 * form it reads.
 */
import zlib from 'node:zlib';
import { HEADER, OFFSETS_VERSION } from './offsets.js';
import { VarintReader } from './varints.js';

/** The fixed form of a packed record, or undefined when it is damaged. */
export function unpackOffsets(packed: Uint8Array): Buffer | undefined {
  let data: Buffer;
  try {
    data = zlib.brotliDecompressSync(packed);
  } catch {
    return undefined;
  }
  const r = new VarintReader(data);
  const varint = () => r.next();
  const n = varint();
  if (n < 0 || 2 * n + n > r.left) return undefined;
  const out = Buffer.alloc(HEADER + 5 * n);
  out.writeUInt32LE(OFFSETS_VERSION, 0);
  out.writeUInt32LE(n, 4);
  const starts = HEADER;
  const ends = HEADER + 2 * n;
  let at = 0;
  for (let i = 0; i < n; i++) {
    const z = varint();
    const length = varint();
    if (z < 0 || length < 0) return undefined;
    at += z & 1 ? -(z + 1) / 2 : z / 2;
    const end = at + length;
    if (at < 0 || end > 0xffff) return undefined;
    out[starts + 2 * i] = at & 0xff;
    out[starts + 2 * i + 1] = at >>> 8;
    out[ends + 2 * i] = end & 0xff;
    out[ends + 2 * i + 1] = end >>> 8;
  }
  if (r.left !== n) return undefined;
  data.copy(out, HEADER + 4 * n, r.at);
  return out;
}

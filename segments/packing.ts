/**
 * @module segments/packing
 * How a segment stores the bulky columns: the raw body and the parse text,
 * each compressed on its own, so a cached page or a summary inflates one
 * record and nothing else. The parse text is brotli at quality 1: on the
 * devweb sites' 1,199 pages (17.7 MB of text) it kept 33 % of the bytes
 * for 4.7 ms of CPU a MB written and 3.2 a MB read, where deflate at level
 * 6 kept 29 % for 17.8 and 3.4, deflate at level 1 33 % for 9.3 and 3.7,
 * brotli at quality 4 29 % for 15.2 and 3.7, and fflate read four times
 * slower than node:zlib. A brotli stream with a 4 MB window starts with an
 * odd byte and a zlib stream (segments written before) with an even one,
 * which is how a stored blob tells its kind; older segments also hold the
 * parse text as plain TEXT. A parse's outlinks (JSON: twenty links of one
 * host are 2 KB) are stored the same way, and a short text or outlink list
 * stays plain TEXT, which compressing would not make smaller.
 */
import zlib from 'node:zlib';

const { BROTLI_PARAM_QUALITY, BROTLI_PARAM_LGWIN, BROTLI_PARAM_SIZE_HINT, BROTLI_PARAM_MODE, BROTLI_MODE_TEXT } = zlib.constants;

/** Texts shorter than this are stored as they are. */
const PLAIN_BELOW = 64;

/** A parse text (or outlinks' JSON) as stored: brotli-compressed UTF-8, or as it is when short. */
export function packText(text: string): Buffer | string {
  if (text.length < PLAIN_BELOW) return text;
  const b = Buffer.from(text, 'utf8');
  return zlib.brotliCompressSync(b, {
    params: { [BROTLI_PARAM_QUALITY]: 1, [BROTLI_PARAM_LGWIN]: 22, [BROTLI_PARAM_SIZE_HINT]: b.length, [BROTLI_PARAM_MODE]: BROTLI_MODE_TEXT },
  });
}

/** A stored blob, brotli (first byte odd) or zlib (even). */
const unpack = (b: Buffer): Buffer => (b[0]! & 1 ? zlib.brotliDecompressSync(b) : zlib.inflateSync(b));

/** A stored parse text (or outlinks' JSON): compressed, or plain TEXT (short, or in segments written before). */
export const unpackText = (t: string | Buffer | null): string => (typeof t === 'string' ? t : t && t.length ? unpack(t).toString('utf8') : '');

/** A stored body (the writer thread compresses it, segments/writer-worker.js). */
export const unpackBody = unpack;

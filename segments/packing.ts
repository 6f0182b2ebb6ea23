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
 * odd byte and a zlib stream (deflated against a dictionary, or written
 * before) with an even one, which is how a stored blob tells its kind;
 * older segments also hold the
 * parse text as plain TEXT. A parse's outlinks (JSON: twenty links of one
 * host are 2 KB) are stored the same way, and a short text or outlink list
 * stays plain TEXT, which compressing would not make smaller.
 *
 * Where the page's body is stored beside it, the parse text is deflated with
 * the body as its dictionary (a zlib stream whose header says so): the text
 * is mostly the body's words, so it takes a few back-references into the
 * body, not a second compressed copy of the words. On 1,000 pages of the
 * crawl benchmark's web (16.6 KB bodies, 15.5 KB of text) it kept 266 bytes
 * a page where brotli kept 6,475, for 108 µs of CPU a page written against
 * 124; reading it inflates the body first, 117 µs a page against 84.
 * Deflate's window is 32 KB, so a body's last 32 KB are the dictionary; a
 * text that finds too little there is kept in brotli instead.
 *
 * A body itself is deflated against a dictionary of its host (the writer
 * thread makes them, segments/writer-worker.js), which its reader is given
 * with it: the segment's dictionary row named by the stream's header.
 */
import zlib from 'node:zlib';
import { HzError } from '../shared/errors.js';
import { Lru } from '../shared/index/lru.js';

const { BROTLI_PARAM_QUALITY, BROTLI_PARAM_LGWIN, BROTLI_PARAM_SIZE_HINT, BROTLI_PARAM_MODE, BROTLI_MODE_TEXT } = zlib.constants;

/** Texts shorter than this are stored as they are. */
const PLAIN_BELOW = 64;

/** Deflate's window: a dictionary's last this many bytes are all it can refer to. */
const WINDOW = 32_768;

const dictionaryOf = (body: Uint8Array): Uint8Array => body.subarray(Math.max(0, body.length - WINDOW));

const brotli = (b: Buffer): Buffer =>
  zlib.brotliCompressSync(b, {
    params: { [BROTLI_PARAM_QUALITY]: 1, [BROTLI_PARAM_LGWIN]: 22, [BROTLI_PARAM_SIZE_HINT]: b.length, [BROTLI_PARAM_MODE]: BROTLI_MODE_TEXT },
  });

/**
 * A parse text (or outlinks' JSON) as stored: deflated against `body` (the
 * page's stored body, uncompressed) when given and it finds most of the text
 * there, else brotli-compressed UTF-8, or as it is when short.
 */
export function packText(text: string, body?: Uint8Array): Buffer | string {
  if (text.length < PLAIN_BELOW) return text;
  const b = Buffer.from(text, 'utf8');
  if (!body?.length) return brotli(b);
  const against = zlib.deflateSync(b, { level: 6, dictionary: dictionaryOf(body) });
  // A quarter of the text is about what brotli keeps of prose alone: past it, brotli may do better.
  if (against.length * 4 <= b.length) return against;
  const alone = brotli(b);
  return alone.length < against.length ? alone : against;
}

/** Whether a stored zlib blob is deflated against a dictionary (a zlib header with FDICT set): a text against its page's body, a body against its host's. */
const needsDictionary = (b: Buffer): boolean => !(b[0]! & 1) && b.length > 1 && (b[1]! & 0x20) !== 0;

/** A page's body as the segment holds it, and its host's dictionary (brotli-compressed) when it was deflated against one. */
export interface StoredBody {
  body: Buffer | null;
  dict?: Buffer | null;
}

/**
 * Dictionaries inflated lately, by their stored bytes, the least recently
 * used dropped first, within INFLATED_BYTES: reading a segment's pages in
 * order meets the same hosts' again and again, a fetch list's hosts in turn
 * (inflating one again for every page of a crawl of more hosts than are
 * kept cost indexing a sixteenth of its CPU). A searcher's summaries meet
 * every segment's hosts' at random (each segment has a dictionary a host): at
 * 100k generated pages 400 of them, 8 KB each inflated; with 128 kept, most
 * summaries inflated their host's again, a sixth of a summary's CPU.
 */
const INFLATED_BYTES = 8 * 2 ** 20;
const inflated = new Lru<string, Buffer>(INFLATED_BYTES, (d) => d.length);

/** Host dictionaries inflated (counted work: what `inflated` saves). */
export const dictionaryInflations = { count: 0 };

/** The same stored dictionary passed again (segments/parse-records.ts keeps those it read): found by identity, not by its bytes. */
const inflatedOf = new WeakMap<Buffer, Buffer>();

function hostDictionary(dict: Buffer): Buffer {
  const known = inflatedOf.get(dict);
  if (known) return known;
  const key = dict.toString('latin1');
  let d = inflated.get(key);
  if (!d) {
    d = inflated.set(key, zlib.brotliDecompressSync(dict));
    dictionaryInflations.count++;
  }
  inflatedOf.set(dict, d);
  return d;
}

/**
 * A stored body (the writer thread compresses it, segments/writer-worker.js):
 * brotli (first byte odd), zlib (even; segments written before), or zlib
 * against `dict`, its host's dictionary, which the segment stores beside it;
 * `url` is the page's, for the message when it is missing.
 */
export function unpackBody(b: Buffer, dict?: Buffer | null, url?: string): Buffer {
  if (b[0]! & 1) return zlib.brotliDecompressSync(b);
  if (!needsDictionary(b)) return zlib.inflateSync(b);
  if (!dict) throw new HzError('HZ_ERR_SEGMENT_CORRUPT', `the body of ${url} was stored against its host's dictionary, which the segment does not hold`);
  return zlib.inflateSync(b, { dictionary: hostDictionary(dict) });
}

/** A stored text, brotli or zlib, and the page's body it was deflated against if it was. */
function unpack(b: Buffer, page?: StoredBody | null, url?: string): Buffer {
  if (b[0]! & 1) return zlib.brotliDecompressSync(b);
  if (!needsDictionary(b)) return zlib.inflateSync(b);
  if (!page?.body) throw new HzError('HZ_ERR_SEGMENT_CORRUPT', `the parse text of ${url} was stored against the page body, which the segment does not hold`);
  return zlib.inflateSync(b, { dictionary: dictionaryOf(unpackBody(page.body, page.dict, url)) });
}

/**
 * A stored parse text (or outlinks' JSON): compressed, or plain TEXT (short,
 * or in segments written before); `page` holds the page's stored body as
 * the segment holds it (compressed) and its host's dictionary, which a text
 * deflated against the body needs, and `url` is the page's, for the message
 * when it is missing.
 */
export const unpackText = (t: string | Buffer | null, page?: StoredBody | null, url?: string): string =>
  typeof t === 'string' ? t : t && t.length ? unpack(t, page, url).toString('utf8') : '';

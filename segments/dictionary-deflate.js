/**
 * @module segments/dictionary-deflate
 * Deflate against preset dictionaries with a zlib stream kept for each and
 * reset between bodies, writing into one output buffer reused from body to
 * body, where zlib.deflateSync makes and frees 270 KB of native state and a
 * 16 KB output buffer (left for the garbage collector) for every body. The
 * writer thread (segments/writer-worker.js) deflates every body it stores
 * against its host's dictionary: on the crawl benchmark's pages this takes
 * 222 µs of CPU a body against deflateSync's 240. The crawl's peak memory
 * did not move measurably with it; what did is malloc's mmap threshold
 * (bin/hazelnut). Node gives a kept stream no synchronous write, so this
 * calls the stream's native handle the way deflateSync does itself; a reset
 * stream sets its dictionary again, and the bytes are the same as
 * deflateSync's (test/segments/dictionary-deflate.test.ts).
 */
import zlib from 'node:zlib';

const { Z_FINISH } = zlib.constants;

/**
 * `deflate(body, dict)` deflates `body` at `level` against `dict` into a zlib
 * stream, as `zlib.deflateSync(body, { level, dictionary: dict })` would; the
 * result is a view of a buffer the next call overwrites: store or copy it
 * first. A stream is kept for each of the `kept` dictionaries used last (by
 * identity), the least recently used closed when another needs one, and
 * `close()` closes them all.
 */
export function dictionaryDeflate(level, kept) {
  /** dictionary → its stream, the least recently used first. */
  const streams = new Map();
  let out = Buffer.allocUnsafe(64 * 1024);
  const streamFor = (dict) => {
    let s = streams.get(dict);
    if (s) {
      streams.delete(dict);
      s.reset();
    } else {
      s = new zlib.Deflate({ level, dictionary: dict });
      // A failing write destroys the stream, which then emits its error: the caller hears of it by the throw below.
      s.on('error', () => {});
      if (streams.size >= kept) {
        const [oldest, stream] = streams.entries().next().value;
        streams.delete(oldest);
        stream.close();
      }
    }
    streams.set(dict, s);
    return s;
  };
  const deflate = (body, dict) => {
    const s = streamFor(dict);
    // [output bytes left, input bytes left] after each write.
    const state = s._writeState;
    let inOff = 0;
    let n = 0;
    for (;;) {
      s._handle.writeSync(Z_FINISH, body, inOff, body.length - inOff, out, n, out.length - n);
      if (s.destroyed) {
        streams.delete(dict);
        throw new Error('deflate failed');
      }
      inOff = body.length - state[1];
      n = out.length - state[0];
      if (state[0] !== 0) return out.subarray(0, n);
      // Output full before the end: a larger buffer, and on from where it stopped.
      const grown = Buffer.allocUnsafe(out.length * 2);
      out.copy(grown, 0, 0, n);
      out = grown;
    }
  };
  const close = () => {
    for (const s of streams.values()) s.close();
    streams.clear();
  };
  return { deflate, close };
}

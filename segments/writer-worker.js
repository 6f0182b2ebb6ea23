// The thread behind segments/segment-writer.ts: parses what it is asked to (when it
// was given a parser), compresses the bodies the fetcher hands over and commits
// each batch in one transaction, on one connection per segment, each
// segment's writes arriving on a channel of their own. Plain JavaScript, so
// it loads the same way however the main thread was started (built or
// through tsx); the parser comes as the main thread runs (shared/thread-module.js).
import { parentPort, workerData } from 'node:worker_threads';
import zlib from 'node:zlib';
import Database from 'better-sqlite3';
import { dictionaryDeflate } from './dictionary-deflate.js';

const { sql, pragmas, parse } = workerData;

/** Resolves to (record, content) => the parse statement's parameters when this thread parses. */
const parser = parse
  ? (async () => {
      const { loadModule } = await import('../shared/thread-module.js');
      return (await loadModule(parse.module)).pageParser(parse.data);
    })()
  : Promise.resolve(undefined);
// The writers give this thread pages to parse once it says its parser is loaded.
parser.then(
  (p) => p && parentPort.postMessage({ parser: 'loaded' }),
  (e) => parentPort.postMessage({ parser: 'failed', error: e instanceof Error ? e.message : String(e) }),
);

// A body is compressed in this thread, off the fetch loop, deflated at level
// 4 against a dictionary of its host: the last 32 KB (deflate's window) of
// the first body of 1 KB or more of that host stored in the file. Pages of
// one site share their templates, navigation and vocabulary, which the
// dictionary holds once for all of them, and a cached page still inflates
// its own record and the dictionary, not a block of pages. On the crawl
// benchmark's pages (16.2 KB, 250 a host) it kept 32 % of the bytes for
// 260 µs of CPU a page written and 50 read; brotli on its own, which node's
// zlib cannot give a dictionary, kept 37.6 % at quality 2 (165 µs, 65 read)
// and 42.5 % at quality 0 (87, 84). The first body of a host becomes its
// dictionary and is deflated against itself, a few hundred bytes for all
// but the part before its last 32 KB, so a host of one page costs no more.
// A body under 1 KB before its host has a dictionary is brotli at quality
// 2; its 4 MB window makes every stream's first byte odd, which is how
// segments/packing.ts tells it from a zlib stream (first byte even: CM = 8).
const { BROTLI_PARAM_QUALITY, BROTLI_PARAM_LGWIN, BROTLI_PARAM_SIZE_HINT } = zlib.constants;
const brotli = (b) => zlib.brotliCompressSync(b, { params: { [BROTLI_PARAM_QUALITY]: 2, [BROTLI_PARAM_LGWIN]: 22, [BROTLI_PARAM_SIZE_HINT]: b.length } });
const WINDOW = 32_768;
const DICTIONARY_FROM = 1024;
const LEVEL = 4;
/** Dictionaries a connection keeps in memory, the least recently used dropped first (each up to 32 KB). */
const KEPT = 64;
/** Deflate streams a connection keeps, one for each of the dictionaries used last (each 270 KB of zlib's state). */
const STREAMS = 24;

/**
 * The bodies' compression on one connection: `pack(url, body)` inside its
 * transaction, then `settle(committed)`; `close()` once the connection is closed. A dictionary made in a transaction
 * is stored in it and used from memory only once it is committed; another
 * thread's, made meanwhile, is read from the file (the transaction holds the
 * write lock, so the file holds every committed one).
 */
function bodyPacker(db) {
  const find = db.prepare('SELECT id, data FROM dictionary WHERE host = ?');
  const add = db.prepare('INSERT OR IGNORE INTO dictionary (id, host, data) VALUES (?, ?, ?)');
  /** host → { id, dict } committed, or null: no dictionary to be had (its id is another host's). */
  const kept = new Map();
  let made = new Map();
  const keep = (host, d) => {
    kept.delete(host);
    kept.set(host, d);
    if (kept.size > KEPT) kept.delete(kept.keys().next().value);
    return d;
  };
  const stored = (r) => ({ id: r.id, dict: zlib.brotliDecompressSync(r.data) });
  /** The host's dictionary, null when it can have none, undefined when it has none yet. */
  const dictionaryOf = (host) => {
    if (made.has(host)) return made.get(host);
    if (kept.has(host)) return keep(host, kept.get(host));
    const r = find.get(host);
    return r && keep(host, stored(r));
  };
  const streams = dictionaryDeflate(LEVEL, STREAMS);
  const against = streams.deflate;
  return {
    /** The body as stored: a view that the next call overwrites. */
    pack(url, body) {
      const host = new URL(url).host;
      const d = dictionaryOf(host);
      if (d) return against(body, d.dict);
      if (d === null || body.length < DICTIONARY_FROM) return brotli(body);
      // A copy: the body's memory may be shared with the parse.
      const dict = Buffer.from(body.subarray(Math.max(0, body.length - WINDOW)));
      const out = against(body, dict);
      // The zlib header names the dictionary by its Adler-32 (bytes 2–5), which readers look it up by.
      const id = Buffer.from(out.subarray(2, 6));
      add.run(id, host, brotli(dict));
      const now = find.get(host);
      if (now?.id.equals(id)) {
        made.set(host, { id, dict });
        return out;
      }
      // Another thread's dictionary for the host, or one of another host with the same id.
      if (now) return against(body, keep(host, stored(now)).dict);
      keep(host, null);
      return brotli(body);
    },
    settle(committed) {
      if (committed) for (const [host, d] of made) keep(host, d);
      made = new Map();
    },
    close: streams.close,
  };
}

const unfetched = (file, url) => new Error(`segment ${file}: no fetch record for ${url}, which its content is stored under`);

function open(file) {
  const db = new Database(file, { fileMustExist: true });
  for (const p of pragmas) db.pragma(p);
  db.pragma('busy_timeout = 10000');
  const putFetch = db.prepare(sql.fetch);
  const putContent = db.prepare(sql.content);
  const putParse = db.prepare(sql.parse);
  const putParseByUrl = db.prepare(sql.parseByUrl);
  const bodies = bodyPacker(db);
  const store = db.transaction((writes) => {
    for (const w of writes) {
      if (w.fetch) putFetch.run(w.fetch);
      // A content row is keyed by its fetch row: a URL without one stores nothing, and is refused.
      if (w.content && putContent.run(...w.content.params, bodies.pack(w.content.params[0], w.content.bytes)).changes === 0) throw unfetched(file, w.content.params[0]);
      if (w.parse && putParse.run(w.parse).changes === 0) putParseByUrl.run(w.parse);
    }
  });
  // Immediate: the dictionaries are read before the first write, and a read snapshot could not become a write after another thread's commit.
  const commit = (writes) => {
    try {
      store.immediate(writes);
      bodies.settle(true);
    } catch (e) {
      bodies.settle(false);
      throw e;
    }
  };
  return { db, commit, bodies };
}

/** Parses are committed in groups: after this long of parsing, or when nothing more waits. */
const PARSE_GROUP_MS = 20;

/**
 * Stores what arrives on `port` into `file`: the batches of writes that
 * arrived while the thread was busy (parsing, or committing the last ones)
 * are committed together as soon as it is free, in one transaction, so a
 * kill loses only the pages of the last moments; a commit costs about as
 * much for one page as for ten, most of it the index pages it rewrites.
 * Pages to parse (their bodies committed before, unless not stored) queue
 * up and their parses are committed in groups as they are done, with the
 * batches waiting then. A page whose body is not stored brings its fetch
 * record, committed with its parse.
 */
function serve(port, file) {
  let seg;
  try {
    seg = open(file);
  } catch (e) {
    // Thrown errors lose their message on the way to the main thread; say it in a plain one.
    port.postMessage({ failed: e instanceof Error ? e.message : String(e) });
    port.close();
    return;
  }
  // What waits for the next commit: writes, the batches they came in, and the parses among them.
  let writes = [];
  let ids = [];
  let parsed = 0;
  let parsedBytes = 0;
  let scheduled = false;
  const commitWaiting = () => {
    scheduled = false;
    if (writes.length === 0) return;
    const reply = { ids };
    if (parsed) Object.assign(reply, { parsed, bytes: parsedBytes });
    try {
      seg.commit(writes);
    } catch (e) {
      reply.error = e instanceof Error ? e.message : String(e);
    }
    writes = [];
    ids = [];
    parsed = parsedBytes = 0;
    port.postMessage(reply);
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(commitWaiting);
  };
  const queue = [];
  let parsing;
  const parseQueued = async () => {
    const parsePage = await parser;
    while (queue.length) {
      const until = Date.now() + PARSE_GROUP_MS;
      do {
        const job = queue.shift();
        const b = job.bytes;
        // A job bringing its fetch record is a page whose body is not stored.
        const parse = await parsePage(job.record, { ...job.content, bytes: Buffer.from(b.buffer, b.byteOffset, b.byteLength) }, !job.fetch);
        parsedBytes += b.byteLength;
        parsed++;
        writes.push({ fetch: job.fetch, parse });
        // Batches that arrived meanwhile are committed now, not after the parses waiting: a kill loses only the last moments.
        await new Promise((resolve) => setImmediate(resolve));
      } while (queue.length && Date.now() < until);
      commitWaiting();
    }
  };
  port.on('message', (m) => {
    if (m.close) {
      Promise.resolve(parsing).finally(() => {
        commitWaiting();
        port.postMessage({ closed: true });
        port.close();
        // Everything is committed: the writer goes on (a crawl to the segment's updatedb) while this thread
        // copies the WAL into the file, which the last connection's close would otherwise do on the main thread.
        // A passive checkpoint waits for no reader or writer; what it leaves, the last close copies.
        try {
          seg.db.pragma('wal_checkpoint(PASSIVE)');
        } finally {
          seg.db.close();
          seg.bodies.close();
        }
      });
      return;
    }
    if (m.jobs) {
      queue.push(...m.jobs);
      parsing ??= parseQueued()
        .catch((e) => port.postMessage({ error: e instanceof Error ? e.message : String(e) }))
        .finally(() => {
          parsing = undefined;
        });
      return;
    }
    writes.push(...m.batch);
    ids.push(m.id);
    schedule();
  });
}

// Asked to exit (WriterThreads.close), the thread has finished what it was doing, the checkpoint of a closed segment's WAL included.
parentPort.on('message', (m) => (m.exit ? process.exit(0) : serve(m.port, m.file)));

// The thread behind segments/segment-writer.ts: parses what it is asked to (when it
// was given a parser), compresses the bodies the fetcher hands over and commits
// each batch in one transaction, on one connection per segment, each
// segment's writes arriving on a channel of their own. Plain JavaScript, so
// it loads the same way however the main thread was started (built or
// through tsx); the parser comes as the main thread runs (shared/thread-module.js).
import { parentPort, workerData } from 'node:worker_threads';
import zlib from 'node:zlib';
import Database from 'better-sqlite3';

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

// The body is compressed in this thread, off the fetch loop: brotli at
// quality 2, told the body's size. On the crawl benchmark's pages (16.2 KB)
// it keeps 37.6 % of the bytes for 165 µs of CPU a page written and 65 read,
// where quality 0 kept 42.5 % for 87 and 84, quality 1 41.5 % for 105 and 89,
// and deflate at level 1 39.8 % for 169 and 64; quality 5 kept 36.1 % for
// 424. The bodies are most of a segment's bytes. A 4 MB window makes every
// stream's first byte odd, which is how segments/packing.ts tells it from
// the zlib streams of segments written before (first byte even: CM = 8).
const { BROTLI_PARAM_QUALITY, BROTLI_PARAM_LGWIN, BROTLI_PARAM_SIZE_HINT } = zlib.constants;
const compress = (b) => zlib.brotliCompressSync(b, { params: { [BROTLI_PARAM_QUALITY]: 2, [BROTLI_PARAM_LGWIN]: 22, [BROTLI_PARAM_SIZE_HINT]: b.length } });

function open(file) {
  const db = new Database(file, { fileMustExist: true });
  for (const p of pragmas) db.pragma(p);
  db.pragma('busy_timeout = 10000');
  const putFetch = db.prepare(sql.fetch);
  const putContent = db.prepare(sql.content);
  const putParse = db.prepare(sql.parse);
  const commit = db.transaction((writes) => {
    for (const w of writes) {
      if (w.fetch) putFetch.run(w.fetch);
      if (w.content) putContent.run(...w.content.params, compress(w.content.bytes));
      if (w.parse) putParse.run(w.parse);
    }
  });
  return { db, commit };
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

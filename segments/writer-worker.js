// The thread behind segments/writer.ts: parses what it is asked to (when it
// was given a parser), compresses what the fetcher hands over and commits
// each batch in one transaction, on one connection per segment, each
// segment's writes arriving on a channel of their own. Plain JavaScript, so
// it loads the same way however the main thread was started (tsx or not);
// only the parser comes through tsx.
import { parentPort, workerData } from 'node:worker_threads';
import zlib from 'node:zlib';
import Database from 'better-sqlite3';

const { sql, pragmas, parse } = workerData;

/** Resolves to (record, content) => { params, text } when this thread parses. */
const parser = parse
  ? (async () => {
      const { register } = await import('tsx/esm/api');
      register();
      const m = await import(parse.module);
      return m.pageParser(parse.data);
    })()
  : Promise.resolve(undefined);
// A parser that cannot load fails each batch with its reason, rather than the thread.
parser.catch(() => {});

const deflate = (b) => zlib.deflateSync(b, { level: 1 });

function open(file) {
  const db = new Database(file, { fileMustExist: true });
  for (const p of pragmas) db.pragma(p);
  db.pragma('busy_timeout = 10000');
  const putFetch = db.prepare(sql.fetch);
  const putContent = db.prepare(sql.content);
  const putParse = db.prepare(sql.parse);
  const commit = db.transaction((batch) => {
    for (const w of batch) {
      putFetch.run(w.fetch);
      if (w.content?.store) putContent.run(...w.content.params, deflate(w.content.bytes));
      if (w.parse) putParse.run({ ...w.parse.params, text: deflate(w.parse.text) });
    }
  });
  return { db, commit };
}

/** Stores what arrives on `port` into `file`, batch after batch, in order. */
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
  let chain = Promise.resolve();
  port.on('message', (m) => {
    chain = chain.then(async () => {
      if (m.close) {
        seg.db.close();
        port.postMessage({ closed: true });
        port.close();
        return;
      }
      try {
        const parsePage = await parser;
        for (const w of m.batch)
          if (w.toParse) w.parse = await parsePage(w.toParse.record, { ...w.toParse.content, bytes: Buffer.from(w.content.bytes.buffer, w.content.bytes.byteOffset, w.content.bytes.byteLength) });
        seg.commit(m.batch);
        port.postMessage({ id: m.id });
      } catch (e) {
        port.postMessage({ id: m.id, error: e instanceof Error ? e.message : String(e) });
      }
    });
  });
}

parentPort.on('message', (m) => serve(m.port, m.file));

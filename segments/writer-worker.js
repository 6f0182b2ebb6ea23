// The thread behind segments/writer.ts: compresses what the fetcher hands
// over and commits each batch in one transaction on its own connection.
// Plain JavaScript, so it loads the same way however the main thread was
// started (tsx or not).
import { parentPort, workerData } from 'node:worker_threads';
import zlib from 'node:zlib';
import Database from 'better-sqlite3';

const { file, sql, pragmas } = workerData;

function open() {
  const db = new Database(file, { fileMustExist: true });
  for (const p of pragmas) db.pragma(p);
  db.pragma('busy_timeout = 10000');
  return { db, putFetch: db.prepare(sql.fetch), putContent: db.prepare(sql.content), putParse: db.prepare(sql.parse) };
}

let opened;
try {
  opened = open();
} catch (e) {
  // Thrown errors lose their message on the way to the main thread; say it in a plain one.
  throw new Error(e instanceof Error ? e.message : String(e));
}
const { db, putFetch, putContent, putParse } = opened;
const deflate = (b) => zlib.deflateSync(b, { level: 1 });

const commit = db.transaction((batch) => {
  for (const w of batch) {
    putFetch.run(w.fetch);
    if (w.content) putContent.run(...w.content.params, deflate(w.content.bytes));
    if (w.parse) putParse.run({ ...w.parse.params, text: deflate(w.parse.text) });
  }
});

parentPort.on('message', (m) => {
  if (m.close) {
    db.close();
    parentPort.postMessage({ closed: true });
    return;
  }
  try {
    commit(m.batch);
    parentPort.postMessage({ id: m.id });
  } catch (e) {
    parentPort.postMessage({ id: m.id, error: e instanceof Error ? e.message : String(e) });
  }
});

// The thread behind crawler/webdb/postgres/sync-client.ts: one `pg`
// connection; runs each message's statements in order and answers on the
// port, then wakes the main thread, which waits on the shared flag. Plain
// JavaScript, so it loads the same way however the main thread was started
// (tsx or not).
import { workerData } from 'node:worker_threads';

const { url, flag, port, applicationName } = workerData;
const signal = new Int32Array(flag);

function reply(m) {
  port.postMessage(m);
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
}

const failure = (e) => ({ error: { message: e instanceof Error ? e.message : String(e), code: e?.code } });

let client;
let broken;

async function connect() {
  const { default: pg } = await import('pg');
  // Counts (bigint) and numerics come back as numbers, as from SQLite.
  const types = {
    getTypeParser: (oid, format) => (oid === 20 || oid === 1700 ? (v) => (v === null ? null : Number(v)) : pg.types.getTypeParser(oid, format)),
  };
  client = new pg.Client({ connectionString: url, application_name: applicationName, types });
  // A connection lost between statements: the next message gets the error.
  client.on('error', (e) => (broken = e));
  await client.connect();
}

async function run(queries) {
  const results = [];
  for (const q of queries) {
    const r = await client.query({ text: q.text, values: q.values, rowMode: q.array ? 'array' : undefined });
    results.push({ rows: r.rows, rowCount: r.rowCount ?? 0 });
  }
  return results;
}

port.on('message', async (m) => {
  try {
    if (m.connect) {
      await connect();
      reply({});
    } else if (m.close) {
      await client?.end().catch(() => {});
      reply({});
      port.close();
    } else {
      if (broken) throw broken;
      reply({ results: await run(m.queries) });
    }
  } catch (e) {
    reply(failure(e));
  }
});

process.on('uncaughtException', (e) => reply(failure(e)));

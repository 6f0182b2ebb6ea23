// The thread behind crawler/webdb/postgres/sync-client.ts: one `pg`
// connection; runs each message's statements in order and answers on the
// port, then wakes the main thread, which waits on the shared flag. Plain
// JavaScript, so it loads the same way however the main thread was started
// (tsx or not).
//
// Faults are ridden out here, where waiting costs the main thread nothing
// but its sleep: a lost connection is made again with backoff for up to
// `waitMs` (a batch outside a transaction is then sent again whole), a
// connect gives up after `connectMs`, and a statement still running after
// half of `waitMs` is cut off when a second connection gets no answer
// within the other half either:
// a server that works on a long statement is waited for, a stopped one is not.
import { workerData } from 'node:worker_threads';
import { setTimeout as sleep } from 'node:timers/promises';

const { url, flag, port, applicationName, connectMs, waitMs, keepAliveMs, readonly } = workerData;
const signal = new Int32Array(flag);

function reply(m) {
  port.postMessage(m);
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
}

/** The error as the main thread reads it; `waited` (ms) and `what` when it is the end of a wait. */
const failure = (e, extra = {}) => ({ error: { message: e instanceof Error ? e.message : String(e), code: e?.code, ...extra } });

/** Errors a server that is restarting or unreachable gives; anything else (a wrong password, no such database) will not go away. */
function transient(e) {
  const c = e?.code;
  if (typeof c === 'string' && /^(?:08|57P0[1-3])/.test(c)) return true;
  if (typeof c === 'string' && /^E[A-Z]+$/.test(c)) return true;
  return /Connection terminated|timeout expired|Connection ended|not queryable|no answer/i.test(e?.message ?? '');
}

let pg;
let client;
let broken;

async function newClient(timeoutMs) {
  pg ??= (await import('pg')).default;
  // Counts (bigint) and numerics come back as numbers, as from SQLite.
  const types = {
    getTypeParser: (oid, format) => (oid === 20 || oid === 1700 ? (v) => (v === null ? null : Number(v)) : pg.types.getTypeParser(oid, format)),
  };
  const c = new pg.Client({
    connectionString: url,
    application_name: applicationName,
    types,
    connectionTimeoutMillis: Math.max(1, Math.round(timeoutMs)),
    keepAlive: true,
    keepAliveInitialDelayMillis: keepAliveMs,
    // Set per session, so a connection made again is read-only too.
    options: readonly ? '-c default_transaction_read_only=on' : undefined,
  });
  // A connection lost between statements: the next message finds it broken.
  c.on('error', (e) => {
    if (c === client) broken = e;
  });
  try {
    await c.connect();
  } catch (e) {
    c.end().catch(() => {});
    throw e;
  }
  return c;
}

function drop() {
  const c = client;
  client = undefined;
  broken = undefined;
  c?.end().catch(() => {});
  c?.connection?.stream?.destroy();
}

/** Connects again after `cause`, with backoff, until `waitMs` has passed since `since`. */
async function reconnect(cause, since) {
  drop();
  let last = cause;
  for (let delay = 100; ; delay = Math.min(delay * 2, 2000)) {
    const left = since + waitMs - Date.now();
    if (left <= 0) {
      const e = new Error(last?.message ?? String(last));
      e.code = last?.code;
      e.waited = Date.now() - since;
      e.what = `to come back (it was lost: ${cause?.message ?? cause})`;
      throw e;
    }
    try {
      client = await newClient(Math.min(connectMs, left));
      return;
    } catch (e) {
      last = e;
      if (!transient(e)) throw e;
    }
    await sleep(Math.min(delay, Math.max(0, since + waitMs - Date.now())));
  }
}

/** Whether a second connection gets an answer within the wait: the server works, or it has stopped. */
async function answers() {
  let probe;
  try {
    probe = await newClient(Math.min(connectMs, waitMs / 2));
    await probe.query({ text: 'SELECT 1', query_timeout: waitMs / 2 });
    return true;
  } catch {
    return false;
  } finally {
    probe?.end().catch(() => {});
  }
}

/** Runs `queries`; when the server stops answering during them, cuts the connection and says so. */
async function runWatched(queries) {
  let stalled = false;
  let checking = false;
  const started = Date.now();
  const watch = setInterval(async () => {
    if (checking) return;
    checking = true;
    if (!(await answers()) && client) {
      stalled = true;
      client.connection?.stream?.destroy();
    }
    checking = false;
  }, waitMs / 2);
  try {
    const results = [];
    for (const q of queries) {
      const r = await client.query({ text: q.text, values: q.values, rowMode: q.array ? 'array' : undefined });
      results.push({ rows: r.rows, rowCount: r.rowCount ?? 0 });
    }
    return results;
  } catch (e) {
    if (!stalled) throw e;
    drop();
    const err = new Error('no answer to a statement, nor to a new connection');
    err.code = 'ETIMEDOUT';
    err.waited = Date.now() - started;
    err.what = 'an answer';
    throw err;
  } finally {
    clearInterval(watch);
  }
}

/** The batch's results; `retry`: it may be sent again whole on a new connection (it is not part of a transaction). */
async function run(queries, retry) {
  const since = Date.now();
  if (!client || broken) {
    const cause = broken ?? new Error('not connected');
    if (!retry && broken) {
      drop();
      throw cause;
    }
    await reconnect(cause, since);
  }
  try {
    return await runWatched(queries);
  } catch (e) {
    if (!retry || !transient(e) || e.what) throw e;
    await reconnect(e, since);
    return await runWatched(queries);
  }
}

port.on('message', async (m) => {
  try {
    if (m.connect) {
      const since = Date.now();
      try {
        client = await newClient(connectMs);
      } catch (e) {
        // A server starting up or shutting down (a restart) is waited for; one that refuses is not there.
        if (e?.code !== '57P03') throw e;
        await reconnect(e, since);
      }
      reply({});
    } else if (m.close) {
      // A server that stopped answering never acknowledges the goodbye: do not wait for it long.
      const c = client;
      client = undefined;
      if (c) await Promise.race([c.end().catch(() => {}), sleep(Math.min(1000, waitMs))]);
      c?.connection?.stream?.destroy();
      reply({});
      port.close();
    } else {
      reply({ results: await run(m.queries, m.retry) });
    }
  } catch (e) {
    reply(failure(e, e?.waited === undefined ? {} : { waited: e.waited, what: e.what }));
  }
});

process.on('uncaughtException', (e) => reply(failure(e)));
process.on('unhandledRejection', (e) => reply(failure(e)));

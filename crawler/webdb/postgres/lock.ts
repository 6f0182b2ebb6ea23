/**
 * @module crawler/webdb/postgres/lock
 * One writing tool per PostgreSQL WebDB, as the crawl directory's lock file
 * is for SQLite: a session advisory lock, held by a connection of its own for
 * the tool's run. The server drops it when that connection ends, also when
 * the process is killed, so there is never a stale lock to take over; a
 * second writer is refused with the holder's tool, pid and host, which
 * the holder's connection carries as its application_name. A connection lost
 * to a database restart is made again, with backoff, and the lock taken again.
 */
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import { HzError } from '../../../shared/errors.js';
import { WRITER_LOCK } from './schema.js';
import { connectFailure, shownUrl, timeoutsFor } from './timeouts.js';

/** The lock's holder as the server knows it, or undefined. */
async function holderOf(client: pg.Client): Promise<string | undefined> {
  return (
    await client.query<{ who: string }>(
      `SELECT a.application_name AS who FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
       WHERE l.locktype = 'advisory' AND l.granted AND l.objid = $1 AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      [WRITER_LOCK],
    )
  ).rows[0]?.who;
}

/** Takes the WebDB's writer lock or throws HZ_ERR_LOCKED; returns the release function. */
export async function lockPostgresWebDb(url: string, tool: string): Promise<() => Promise<void>> {
  // Loaded here: a crawl on SQLite never needs the PostgreSQL client.
  const { default: pgm } = await import('pg');
  const t = timeoutsFor(url);
  let released = false;
  const connect = async (): Promise<pg.Client> => {
    const c = new pgm.Client({
      connectionString: url,
      application_name: `hazelnut ${tool} pid ${process.pid} on ${os.hostname()}`.slice(0, 63),
      connectionTimeoutMillis: t.connectMs,
      keepAlive: true,
      keepAliveInitialDelayMillis: t.keepAliveMs,
    });
    c.on('error', () => {
      // A lost connection has lost the lock too: take it again once the server is back.
      if (!released && c === client) void retake();
    });
    await c.connect();
    return c;
  };
  let client: pg.Client;
  try {
    client = await connect();
  } catch (e) {
    throw connectFailure(url, (e as Error).message, t.connectMs);
  }
  const got = (await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [WRITER_LOCK])).rows[0]!.ok;
  if (!got) {
    const holder = await holderOf(client);
    await client.end();
    throw new HzError(
      'HZ_ERR_LOCKED',
      `the WebDB at ${shownUrl(url)} is locked by ${holder || 'another client'}; wait for it to finish (the lock goes when that process ends)`,
    );
  }
  /** Connects again with backoff until the lock is held again or the tool is done; never throws. */
  async function retake(): Promise<void> {
    client.end().catch(() => {});
    for (let delay = 100; !released; delay = Math.min(delay * 2, 5000)) {
      await sleep(delay);
      try {
        const c = await connect();
        if (released || !(await c.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [WRITER_LOCK])).rows[0]!.ok) {
          await c.end().catch(() => {});
          continue;
        }
        client = c;
        return;
      } catch {
        // Still down: try again after the next wait.
      }
    }
  }
  return async () => {
    released = true;
    // A server that stopped answering never acknowledges the goodbye: the lock goes with the connection anyway.
    await Promise.race([client.end().catch(() => {}), sleep(1000)]);
    (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
  };
}

/**
 * @module crawler/webdb/postgres/lock
 * One writing tool per PostgreSQL WebDB, as the crawl directory's lock file
 * is for SQLite: a session advisory lock, held by a connection of its own for
 * the tool's run. The server drops it when that connection ends, also when
 * the process is killed, so there is never a stale lock to take over; a
 * second writer is refused with the holder's tool, pid and host, which
 * the holder's connection carries as its application_name.
 */
import os from 'node:os';
import { HzError } from '../../../shared/errors.js';
import { WRITER_LOCK } from './schema.js';
import { shownUrl } from './sync-client.js';

/** Takes the WebDB's writer lock or throws HZ_ERR_LOCKED; returns the release function. */
export async function lockPostgresWebDb(url: string, tool: string): Promise<() => Promise<void>> {
  // Loaded here: a crawl on SQLite never needs the PostgreSQL client.
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url, application_name: `hazelnut ${tool} pid ${process.pid} on ${os.hostname()}`.slice(0, 63) });
  client.on('error', () => {}); // a lost connection has lost the lock too; the tool's own connection reports it
  try {
    await client.connect();
  } catch (e) {
    throw new HzError('HZ_ERR_WEBDB', `cannot connect to the WebDB at ${shownUrl(url)}: ${(e as Error).message}`);
  }
  const got = (await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [WRITER_LOCK])).rows[0]!.ok;
  if (!got) {
    const holder = (
      await client.query<{ who: string }>(
        `SELECT a.application_name AS who FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
         WHERE l.locktype = 'advisory' AND l.granted AND l.objid = $1 AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
        [WRITER_LOCK],
      )
    ).rows[0]?.who;
    await client.end();
    throw new HzError(
      'HZ_ERR_LOCKED',
      `the WebDB at ${shownUrl(url)} is locked by ${holder || 'another client'}; wait for it to finish (the lock goes when that process ends)`,
    );
  }
  return async () => {
    await client.end().catch(() => {});
  };
}

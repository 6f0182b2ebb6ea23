/**
 * @module crawler/webdb/postgres/open
 * The PostgreSQL WebDB: connects, creates or migrates the schema (under an
 * advisory lock, so tools starting together on several machines do it
 * once), refuses a schema it does not know, and puts the operations
 * (ops.ts) on one object.
 */
import { HzError } from '../../../shared/errors.js';
import type { WebDb } from '../interface.js';
import { Connection } from './connection.js';
import { webDbOps } from './ops.js';
import { partitionOps } from './partitions.js';
import { MIGRATIONS, SCHEMA_LOCK, WEBDB_VERSION } from './schema.js';
import { shownUrl, SyncClient } from './sync-client.js';

/** Whether `s` names a PostgreSQL WebDB rather than a directory. */
export function isPostgresUrl(s: string): boolean {
  return /^postgres(?:ql)?:\/\//i.test(s);
}

/** The schema version stored in the database, undefined when it holds no WebDB. */
function storedVersion(client: SyncClient): number | undefined {
  if (!client.query<{ t: string | null }>("SELECT to_regclass('meta')::text AS t").rows[0]!.t) return undefined;
  const v = client.query<{ value: string }>("SELECT value FROM meta WHERE key = 'version'").rows[0]?.value;
  return v === undefined ? undefined : Number(v);
}

function checkVersion(url: string, version: number): void {
  if (!Number.isInteger(version) || version < 1 || version > WEBDB_VERSION)
    throw new HzError(
      'HZ_ERR_WEBDB',
      `the WebDB at ${shownUrl(url)} has schema version ${version}, which this hazelnut does not know (it knows versions 1 to ${WEBDB_VERSION}); use the hazelnut that wrote it, or a newer one`,
    );
}

function prepareSchema(client: SyncClient, url: string, opts: { create?: boolean; readonly?: boolean }): void {
  const version = storedVersion(client);
  if (version === undefined && (!opts.create || opts.readonly))
    throw new HzError('HZ_ERR_NOT_FOUND', `no WebDB at ${shownUrl(url)} (the database has no WebDB tables); run 'hazelnut inject' first`);
  if (version !== undefined) checkVersion(url, version);
  if (version === WEBDB_VERSION) return;
  if (opts.readonly)
    throw new HzError('HZ_ERR_WEBDB', `the WebDB at ${shownUrl(url)} has schema version ${version}; a tool that writes it (inject, updatedb) migrates it to ${WEBDB_VERSION}`);
  client.query('BEGIN');
  try {
    client.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK]);
    // Another tool may have created or migrated it while we waited for the lock.
    const now = storedVersion(client) ?? 0;
    if (now) checkVersion(url, now);
    for (const ddl of MIGRATIONS.slice(now)) client.query(ddl);
    client.query("INSERT INTO meta (key, value) VALUES ('version', $1) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value", [String(WEBDB_VERSION)]);
    client.query('COMMIT');
  } catch (e) {
    try {
      client.query('ROLLBACK');
    } catch {
      // A lost server: the error being thrown says so.
    }
    throw e;
  }
}

export function hasPostgresWebDb(url: string): boolean {
  const client = new SyncClient(url, `hazelnut ${process.pid}`);
  try {
    return storedVersion(client) !== undefined;
  } finally {
    client.close();
  }
}

export function openPostgresWebDb(url: string, opts: { create?: boolean; readonly?: boolean }): WebDb {
  const client = new SyncClient(url, `hazelnut ${process.pid}`, { readonly: opts.readonly });
  try {
    prepareSchema(client, url, opts);
  } catch (e) {
    client.close();
    throw e;
  }
  const conn = new Connection(client);
  return {
    ...webDbOps(conn),
    ...partitionOps(conn),
    transaction: <T>(fn: () => T): T => conn.transaction(fn),
    close: () => client.close(),
  };
}

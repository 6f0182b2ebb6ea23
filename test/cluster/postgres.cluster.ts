/**
 * The PostgreSQL harness itself: a server starts on loopback as a non-root
 * user, answers, gives fresh databases, and is gone with its directory after
 * stop(); a WebDB open on it then reports the lost server.
 */
import fs from 'node:fs';
import net from 'node:net';
import pg from 'pg';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openWebDb } from '../../crawler/webdb/webdb.js';
import { setWebDbWait } from '../../crawler/webdb/postgres/timeouts.js';
import { startPostgres, type PgServer } from './postgres.js';

let server: PgServer | undefined;

test.after(() => server?.stop());

function connects(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port });
    s.setTimeout(2000, () => (s.destroy(), resolve(false)));
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });
}

test('a server starts on 127.0.0.1, runs as a non-root user, and stops with its directory removed', async () => {
  server = await startPostgres();
  assert.match(server.url, /^postgresql:\/\/hazelnut@127\.0\.0\.1:\d+\/postgres$/);
  const dbUrl = await server.createDatabase('harness_check');
  const c = new pg.Client({ connectionString: dbUrl });
  await c.connect();
  try {
    const r = await c.query<{ v: string; db: string; addr: string; setting: string }>(
      "SELECT current_setting('server_version_num') AS v, current_database() AS db, host(inet_server_addr()) AS addr, current_setting('listen_addresses') AS setting",
    );
    assert.ok(Number(r.rows[0]!.v) >= 150000, `PostgreSQL 15 or later, got ${r.rows[0]!.v}`);
    assert.is(r.rows[0]!.db, 'harness_check');
    assert.is(r.rows[0]!.addr, '127.0.0.1');
    assert.is(r.rows[0]!.setting, '127.0.0.1');
  } finally {
    await c.end();
  }
  const owner = fs.statSync(`${server.dir}/data`).uid;
  assert.is.not(owner, 0, 'the data directory belongs to a non-root user');
  // A WebDB open when its server goes away says so, naming the URL, instead of failing with a bare driver error.
  const db = openWebDb(dbUrl, { create: true });
  db.inject([{ url: 'http://a.test/', host: 'a.test', score: 1, interval: 60, meta: null }], 0, false);
  const { dir, port } = server;
  // A lost server is waited for this long (webdb.timeout) before the tool gives up.
  setWebDbWait(1500);
  server.stop();
  server.stop();
  assert.throws(
    () => db.pageCount(),
    (e: Error & { code?: string }) => e.code === 'HZ_ERR_WEBDB' && /^lost the WebDB at postgresql:\/\/hazelnut@127\.0\.0\.1:\d+\/harness_check: /.test(e.message),
  );
  db.close();
  assert.not.ok(fs.existsSync(dir), 'the temp dir is removed');
  assert.not.ok(await connects(port), 'nothing listens on the port any more');
});

test.run();

/**
 * The WebDB contract (test/crawler/webdb/contract.ts) on the PostgreSQL
 * backend, one database per case. The databases sort text by a language's
 * rules (ICU en-US), not byte-wise: what the WebDB orders must not depend on
 * the server's locale.
 */
import { webDbContract } from '../crawler/webdb/contract.js';
import { openWebDb } from '../../crawler/webdb/webdb.js';
import { startPostgres, type PgServer } from './postgres.js';

let server: PgServer;
let n = 0;

webDbContract({
  name: 'PostgreSQL',
  async setup() {
    server = await startPostgres();
  },
  teardown: () => server.stop(),
  async fresh() {
    const url = await server.createDatabase(`contract_${n++}`, 'en-US');
    return { open: (opts) => openWebDb(url, opts), drop: () => {} };
  },
});

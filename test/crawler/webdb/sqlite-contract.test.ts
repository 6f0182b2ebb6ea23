/** The WebDB contract (contract.ts) on the SQLite backend, one temp directory per case. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openWebDb } from '../../../crawler/webdb/webdb.js';
import { webDbContract } from './contract.js';

webDbContract({
  name: 'SQLite',
  async fresh() {
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hz-webdb-')), 'webdb');
    return {
      open: (opts) => openWebDb(dir, opts),
      drop: () => fs.rmSync(path.dirname(dir), { recursive: true, force: true }),
    };
  },
});

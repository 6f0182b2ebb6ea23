import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import { openWebDb } from '../../../crawler/webdb/webdb.js';
import { partitionCases } from './partitions.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-partitions-'));
let n = 0;
const test = suite('sqlite');
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

partitionCases(test, () => {
  const dir = path.join(tmp, `webdb${n++}`);
  const a = openWebDb(dir, { create: true });
  const b = openWebDb(dir);
  return {
    a,
    b,
    done: () => {
      a.close();
      b.close();
    },
  };
});

test.run();

/**
 * A run of postings written narrow and read back (postings-runs): each
 * term's documents and frequencies as the batch held them, whether the term
 * has one field or all, small frequencies or large, one posting or many.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { RunReader, writeRun } from '../../../shared/index/postings-runs.js';
import { FIELDS } from '../../../shared/index/types.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-runs-'));
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

const F = FIELDS.length;
/** Words a posting takes in the batch: its document, then its frequencies by field, two to a word. */
const W = 1 + Math.ceil(F / 2);

test('postings runs: every term read back as the batch held it, narrow or wide', () => {
  // [term, postings, each posting's frequency in each field from its index i]
  const terms: [number, number, (i: number, f: number) => number][] = [
    [0, 1, (_, f) => (f === 4 ? 1 : 0)],
    [3, 5, () => 0],
    [4, 130, (i, f) => (f === 4 ? 1 + (i % 200) : 0)],
    [9, 3, (i, f) => (f === 0 ? 255 : f === 4 ? i : 0)],
    [10, 2, (i, f) => (f === 1 ? 256 : f === 4 ? 7 : 0)],
    [11, 7, (i, f) => (i * 9_973 + f * 31) % 65_536],
    [12, 1, () => 65_535],
  ];
  const words = terms.reduce((n, [, count]) => n + 2 + count * W, 0);
  const run = new Uint32Array(words);
  const tf = new Uint16Array(run.buffer);
  let g = 0;
  for (const [term, count, freq] of terms) {
    run[g] = term;
    run[g + 1] = count;
    for (let i = 0; i < count; i++) {
      const r = g + 2 + i * W;
      run[r] = 1_000 * term + 3 * i;
      for (let f = 0; f < F; f++) tf[2 * (r + 1) + f] = freq(i, f);
    }
    g += 2 + count * W;
  }
  const file = path.join(tmp, 'run');
  writeRun(file, run, W);
  assert.ok(fs.statSync(file).size <= run.byteLength, 'no larger than the batch');
  const r = new RunReader(file, 64);
  for (const [term, count, freq] of terms) {
    assert.is(r.head, term);
    assert.is(r.read(), count, `term ${term}`);
    assert.equal([...r.docs.subarray(0, count)], Array.from({ length: count }, (_, i) => 1_000 * term + 3 * i), `term ${term}`);
    for (let f = 0; f < F; f++) assert.equal([...r.tf[f]!.subarray(0, count)], Array.from({ length: count }, (_, i) => freq(i, f)), `term ${term}, ${FIELDS[f]}`);
  }
  assert.is(r.head, -1);
  r.close();
});

test.run();

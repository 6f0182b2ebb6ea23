/**
 * `crawl -evaluate` and `hazelnut evaluate` on a real crawl of a small
 * share: the scores, the miss with its /explain link, the first hit that a
 * new page takes over at the next run, the run kept in the crawl directory;
 * a bad judgments file named by file:line, before anything runs.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { shareConf } from '../../fixtures/share.js';
import { hz } from '../checkers/run-cli.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-evaluate-'));
const share = path.join(tmp, 'share');
const url = (p: string) => pathToFileURL(path.join(share, p)).href;
const dir = path.join(tmp, 'crawl');
const judgments = path.join(tmp, 'judged.tsv');
const seeds = path.join(tmp, 'seeds.txt');
let conf: ReturnType<typeof shareConf>;
let args: string[];

test.before(() => {
  fs.mkdirSync(share);
  fs.writeFileSync(path.join(share, 'leave.txt'), 'Annual leave\nEvery employee gets 25 vacation days a year.');
  fs.writeFileSync(path.join(share, 'expenses.txt'), 'Expense reports\nKeep the receipts of every trip.');
  fs.writeFileSync(path.join(share, 'travel.txt'), 'Travel\nTrains for trips under four hours.');
  fs.writeFileSync(seeds, `${url('')}/\n`);
  fs.writeFileSync(
    judgments,
    `# query\texpected URL\nvacation days\t${url('leave.txt')}\nexpense receipts\t${url('expenses.txt')}\t${url('old-expenses.txt')}\nsubmarine trains\t${url('submarine.txt')}\n`,
  );
  conf = shareConf(`${url('')}/`);
  args = [...conf.args, '-D', 'db.fetch.interval.default=1'];
});
test.after(() => {
  conf.cleanup();
  fs.rmSync(tmp, { recursive: true, force: true });
});

test('a bad judgments file is named by file and line, before the crawl starts', async () => {
  const bad = path.join(tmp, 'bad.tsv');
  fs.writeFileSync(bad, `# fine\nvacation days\t${url('leave.txt')}\nvacation days ${url('leave.txt')}\n`);
  const r = await hz([...args, 'crawl', seeds, '-dir', dir, '-evaluate', bad], { confDir: conf.dir });
  assert.is(r.code, 1);
  assert.match(r.err, new RegExp(`${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3: expected a query, a tab and the URL it should find`));
  assert.not.ok(fs.existsSync(dir), 'nothing was crawled');
});

test('crawl -evaluate: MRR@10, P@1 and the miss with its explain link, kept in the crawl directory', async () => {
  const r = await hz([...args, 'crawl', seeds, '-dir', dir, '-depth', '2', '-evaluate', judgments], { confDir: conf.dir });
  assert.is(r.code, 0, r.err);
  assert.match(r.out, /evaluate: 3 judged queries from .*judged\.tsv on 3 documents\n/);
  assert.match(r.out, /\n {2}MRR@10 {3}0\.667\n {2}P@1 {6}0\.667 \(2 of 3 first\)\n/);
  assert.match(r.out, /\n {2}misses {3}1 \(no expected URL in the first 10 hits\):\n {4}"submarine trains" \(.*judged\.tsv:4\): first hit file:\/\/.*\/travel\.txt\n/);
  assert.ok(r.out.includes(`expected ${url('submarine.txt')}; why: http://127.0.0.1:8080/explain?url=${encodeURIComponent(url('submarine.txt'))}&query=submarine%20trains`), r.out);
  assert.match(r.out, /first hit changed: \(first run/);
  const kept = JSON.parse(fs.readFileSync(path.join(dir, 'evaluation.json'), 'utf8'));
  assert.equal(kept.queries.map((q: { rank: number | null }) => q.rank), [1, 1, null]);
});

test('hazelnut evaluate after a re-crawl: the query whose first hit a new page took', async () => {
  // Last-Modified has whole seconds: a file written in the second the first crawl read its directory would leave the directory "not modified".
  await new Promise((res) => setTimeout(res, 1100));
  fs.writeFileSync(path.join(share, 'vacation.txt'), 'Vacation days\nVacation days: how to book vacation days in the calendar.');
  const again = await hz([...args, 'crawl', seeds, '-dir', dir, '-depth', '2'], { confDir: conf.dir });
  assert.is(again.code, 0, again.err);
  const r = await hz([...args, 'evaluate', dir, judgments], { confDir: conf.dir });
  assert.is(r.code, 0, r.err);
  assert.match(r.out, /first hit changed since the last run \(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\): 1\n/);
  assert.ok(r.out.includes(`"vacation days": ${url('leave.txt')} (expected at rank 1) → ${url('vacation.txt')} (expected at rank 2)`), r.out);
  const bad = await hz([...args, 'evaluate', dir, path.join(tmp, 'missing.tsv')], { confDir: conf.dir });
  assert.is(bad.code, 1);
  assert.match(bad.err, /cannot read the judgments file .*missing\.tsv/);
});

test.run();

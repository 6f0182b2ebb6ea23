/**
 * What waits for the next crawl, and why: the words for each bound as a
 * table; then a crawl of a share larger than a round's per-host cap, whose
 * summary counts the files left and names -depth and generate.max.count.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { waitingText, type Waiting, type WaitingBounds } from '../../crawler/waiting.js';
import { shareConf } from '../fixtures/share.js';
import { hz } from './checkers/run-cli.js';

const w = (...hosts: [string, number][]): Waiting => ({ total: hosts.reduce((n, [, c]) => n + c, 0), hosts: hosts.map(([host, count]) => ({ host, count })) });

const CASES: [name: string, waiting: Waiting, bounds: WaitingBounds, text: string][] = [
  ['nothing waits', w(), { maxCount: 1000, capped: true, depth: 5 }, ''],
  ['all rounds ran', w(['a.test', 2]), { maxCount: 1000, capped: false, depth: 5 }, '2 due URLs for the next crawl (2 of a.test): all 5 rounds of -depth ran'],
  ['one round, one URL', w(['a.test', 1]), { maxCount: 1000, capped: false, depth: 1 }, '1 due URL for the next crawl (1 of a.test): all 1 round of -depth ran'],
  [
    'a round was capped',
    w(['local files', 1500]),
    { maxCount: 1000, capped: true, depth: 5 },
    '1,500 due URLs for the next crawl (1,500 of local files): all 5 rounds of -depth ran; a round takes at most 1,000 URLs of a host (generate.max.count)',
  ],
  ['a host over the cap counts as capped', w(['a.test', 1200]), { maxCount: 1000, capped: false }, '1,200 due URLs for the next crawl (1,200 of a.test): a round takes at most 1,000 URLs of a host (generate.max.count)'],
  ['no cap (-1) is never the reason', w(['a.test', 1200]), { maxCount: -1, capped: true }, '1,200 due URLs for the next crawl (1,200 of a.test)'],
  [
    'the three largest hosts named, the rest counted',
    w(['a.test', 5], ['b.test', 4], ['c.test', 3], ['d.test', 2], ['e.test', 1]),
    { maxCount: 1000, capped: false, depth: 2 },
    '15 due URLs for the next crawl (5 of a.test, 4 of b.test, 3 of c.test, 2 more hosts): all 2 rounds of -depth ran',
  ],
];

for (const [name, waiting, bounds, text] of CASES) test(name, () => assert.is(waitingText(waiting, bounds), text));

test('a share over the per-host cap: the summary says how many files wait and why', async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-waiting-'));
  const share = path.join(tmp, 'share');
  fs.mkdirSync(share);
  for (let i = 0; i < 8; i++) fs.writeFileSync(path.join(share, `file${i}.txt`), `File number ${i}.`);
  const root = pathToFileURL(share).href + '/';
  const conf = shareConf(root);
  try {
    const seeds = path.join(tmp, 'seeds.txt');
    fs.writeFileSync(seeds, `${root}\n`);
    const r = await hz([...conf.args, '-D', 'generate.max.count=3', 'crawl', seeds, '-dir', path.join(tmp, 'crawl'), '-depth', '2'], { confDir: conf.dir });
    assert.is(r.code, 0, r.err);
    assert.match(r.out, /\n {2}waiting {12}5 due URLs for the next crawl \(5 of local files\): all 2 rounds of -depth ran; a round takes at most 3 URLs of a host \(generate\.max\.count\)\n/);
    const report = fs.readFileSync(path.join(tmp, 'crawl', 'report.html'), 'utf8');
    assert.match(report, /<p id="waiting"><strong>5 due URLs for the next crawl \(5 of local files\): a round takes at most 3 URLs of a host \(generate\.max\.count\)\.<\/strong>/);
  } finally {
    conf.cleanup();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

test.run();

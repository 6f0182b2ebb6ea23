import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lockPath, readLock } from '../../crawler/crawl-lock.js';
import { runWithLog } from '../../crawler/tool-run.js';
import { crawlDirOf, segmentCrawlDir } from '../../shared/crawl-dir.js';
import { Conf } from '../../shared/conf.js';
import { isHzError } from '../../shared/errors.js';
import type { ToolContext } from '../../shared/command.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-toolrun-'));
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

const ctx = (): ToolContext => ({ conf: Conf.load({ confDir: path.join(tmp, 'conf') }), out: new PassThrough(), err: new PassThrough(), tty: false, confOverrides: {} });
fs.mkdirSync(path.join(tmp, 'conf'));

test('the crawl directory of a webdb, segments dir, index and segment argument', () => {
  const table: [string, string][] = [
    [crawlDirOf('/c/webdb'), '/c'],
    [crawlDirOf('/c/segments/'), '/c'],
    [crawlDirOf('/c/index'), '/c'],
    [segmentCrawlDir('/c/segments/20240101000000'), '/c'],
    [crawlDirOf('webdb'), process.cwd()],
  ];
  for (const [got, want] of table) assert.is(got, want);
});

test('the log goes to <crawl>/logs/<tool>.log; the lock is held only while the work runs and only when asked', async () => {
  const crawl = path.join(tmp, 'a');
  const seen = await runWithLog(ctx(), { tool: 'updatedb', crawlDir: crawl, lock: {} }, async (log) => {
    log.info('working');
    return readLock(crawl)?.tool;
  });
  assert.is(seen, 'updatedb');
  assert.not.ok(fs.existsSync(lockPath(crawl)));
  assert.match(fs.readFileSync(path.join(crawl, 'logs', 'updatedb.log'), 'utf8'), /INFO updatedb: working\n$/);
  const unlocked = await runWithLog(ctx(), { tool: 'index', crawlDir: crawl }, async () => fs.existsSync(lockPath(crawl)));
  assert.is(unlocked, false);
});

test('a failing run still releases the lock; a held lock refuses a second run before its work starts', async () => {
  const crawl = path.join(tmp, 'b');
  const boom = await runWithLog(ctx(), { tool: 'inject', crawlDir: crawl, lock: {} }, async () => {
    throw new Error('boom');
  }).catch((e: Error) => e.message);
  assert.is(boom, 'boom');
  assert.not.ok(fs.existsSync(lockPath(crawl)));
  let ran = false;
  const refused = await runWithLog(ctx(), { tool: 'generate', crawlDir: crawl, lock: {} }, async () =>
    runWithLog(ctx(), { tool: 'inject', crawlDir: crawl, lock: {} }, async () => {
      ran = true;
    }),
  ).catch((e: unknown) => e);
  assert.ok(isHzError(refused) && refused.code === 'HZ_ERR_LOCKED');
  assert.not.ok(ran);
  assert.not.ok(fs.existsSync(lockPath(crawl)));
});

test.run();

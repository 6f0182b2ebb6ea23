/** robotsparser: a robots.txt file's verdict per URL and its Crawl-delay, through the fetcher's robots rules. */
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { hz, tempConf } from './run-cli.js';

const ROBOTS = `# test robots.txt
User-agent: hazelbot
Disallow: /private
Allow: /private/open
Crawl-delay: 2.5

User-agent: *
Disallow: /
`;
const conf = tempConf({ 'robots.txt': ROBOTS, 'urls.txt': 'http://127.0.9.1/private/x\n# skipped\n\nhttp://127.0.9.2/private/open/y\n' });
const robots = path.join(conf.dir, 'robots.txt');
const urlFile = path.join(conf.dir, 'urls.txt');
test.after(conf.cleanup);

const run = (args: string[], stdin?: string) => hz(['robotsparser', ...args], { confDir: conf.dir, stdin });

test('the agent’s own group: allowed/disallowed per URL (longest match wins), its Crawl-delay', async () => {
  const r = await run([robots, 'http://127.0.9.1/', urlFile, 'http://127.0.9.1/private', '-agent', 'hazelbot']);
  assert.is(r.code, 0, r.err);
  assert.is(
    r.out,
    [
      'agent:\thazelbot (its own group)',
      'crawl-delay:\t2.5 s',
      'allowed:\thttp://127.0.9.1/',
      'disallowed:\thttp://127.0.9.1/private/x',
      'allowed:\thttp://127.0.9.2/private/open/y',
      'disallowed:\thttp://127.0.9.1/private',
      '',
    ].join('\n'),
  );
});

test('agents in precedence order; the * group; http.agent.name as the default agent; URLs from stdin', async () => {
  const other = await run([robots, '-agent', 'otherbot'], 'http://127.0.9.1/\n');
  assert.is(other.out, 'agent:\totherbot (the * group)\ncrawl-delay:\tnone\ndisallowed:\thttp://127.0.9.1/\n');
  const listed = await run([robots, '-agent', 'otherbot,HazelBot', 'http://127.0.9.1/a']);
  assert.is(listed.out, 'agent:\tHazelBot (its own group)\ncrawl-delay:\t2.5 s\nallowed:\thttp://127.0.9.1/a\n');
  const byConf = await run(['-D', 'http.agent.name=hazelbot', robots], 'http://127.0.9.1/private/open\n');
  assert.is(byConf.out, 'agent:\thazelbot (its own group)\ncrawl-delay:\t2.5 s\nallowed:\thttp://127.0.9.1/private/open\n');
  const noGroup = tempConf({ 'robots.txt': 'User-agent: someone\nDisallow: /\n' });
  try {
    const r = await hz(['robotsparser', path.join(noGroup.dir, 'robots.txt'), 'http://127.0.9.1/', '-agent', 'hazelbot'], { confDir: noGroup.dir });
    assert.is(r.out, 'agent:\thazelbot (no group applies: everything is allowed)\ncrawl-delay:\tnone\nallowed:\thttp://127.0.9.1/\n');
  } finally {
    noGroup.cleanup();
  }
});

test('only the first 500 KiB of the file count, as for a fetched robots.txt', async () => {
  const big = path.join(conf.dir, 'big.txt');
  fs.writeFileSync(big, `User-agent: *\nDisallow: /early\n${'# padding\n'.repeat(52_000)}Disallow: /late\n`);
  const r = await run([big, '-agent', 'hazelbot', 'http://127.0.9.1/early', 'http://127.0.9.1/late']);
  assert.is(r.out, 'agent:\thazelbot (the * group)\ncrawl-delay:\tnone\ndisallowed:\thttp://127.0.9.1/early\nallowed:\thttp://127.0.9.1/late\n');
});

test('a malformed URL is reported with where it came from and exits 1; bad files name the file; no agent exits 2', async () => {
  fs.writeFileSync(path.join(conf.dir, 'mixed.txt'), 'http://127.0.9.1/private\nnot a url\nftp://127.0.9.1/x\n');
  const mixed = await run([robots, path.join(conf.dir, 'mixed.txt'), '-agent', 'hazelbot']);
  assert.is(mixed.code, 1);
  assert.match(mixed.out, /\ndisallowed:\thttp:\/\/127\.0\.9\.1\/private\nmalformed:\tnot a url\t\(.*mixed\.txt:2\)\nmalformed:\tftp:\/\/127\.0\.9\.1\/x\t\(.*mixed\.txt:3: not http or https\)\n$/);
  const missing = await run([path.join(conf.dir, 'nope.txt'), 'http://127.0.9.1/', '-agent', 'hazelbot']);
  assert.is(missing.code, 1);
  assert.match(missing.err, /cannot read robots\.txt file .*nope\.txt: ENOENT/);
  const missingUrls = await run([robots, path.join(conf.dir, 'nourls.txt'), '-agent', 'hazelbot']);
  assert.is(missingUrls.code, 1);
  assert.match(missingUrls.err, /cannot read URL file .*nourls\.txt: ENOENT/);
  assert.is(missingUrls.out, '');
  const noAgent = await run([robots, 'http://127.0.9.1/']);
  assert.is(noAgent.code, 2);
  assert.match(noAgent.err, /no agent: give -agent <name> or set http\.agent\.name/);
  const bare = await run(['-agent', 'hazelbot']);
  assert.is(bare.code, 2);
  assert.match(bare.err, /missing <robots\.txt>/);
});

test.run();

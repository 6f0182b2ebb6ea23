/**
 * robots.txt that redirects where no robots.txt can be: a Location that is
 * no URL at all, and one to a local file while protocol-file is active (for
 * file: seeds). The first must end in a record for the page with a reason,
 * not an exception out of the fetch; the second must not read the file, nor
 * keep its text as the host's rules in the WebDB.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fetch } from '../../crawler/fetch/tool.js';
import { generate } from '../../crawler/generate.js';
import { inject } from '../../crawler/inject.js';
import { openWebDb } from '../../crawler/webdb/webdb.js';
import { Conf } from '../../shared/conf.js';
import { Segment } from '../../segments/segment.js';
import * as h from '../fixtures/hostile.js';

let web: h.HostileWeb;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-robots-redirect-'));
const local = path.join(tmp, 'local-robots.txt');

test.before(async () => {
  fs.writeFileSync(local, 'User-agent: *\nDisallow: /\n# LOCAL-FILE-CONTENT\n');
  web = await h.startHostileWeb('127.0.10', {
    badloc: { '/robots.txt': h.redirect('http://[not-an-address/robots.txt'), '/': h.ok('<title>bad location</title>') },
    tofile: { '/robots.txt': h.redirect(`file://${local}`), '/': h.ok('<title>to file</title>') },
    toftp: { '/robots.txt': h.redirect('ftp://127.0.10.9/robots.txt'), '/': h.ok('<title>to ftp</title>') },
  });
});

test.after(async () => {
  await web?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

test('a robots.txt redirect to no URL, a local file or another scheme: the page gets a record, the file is never read', async () => {
  const conf = Conf.load({
    overrides: {
      'http.agent.name': 'HzTest',
      'fetcher.server.delay': '0.01',
      'http.timeout': '1000',
      'http.timeout.total': '3000',
      'plugin.includes': 'protocol-(http|file)|urlfilter-(regex|host)|parse-(text|html)|index-basic|scoring-opic|urlnormalizer-(basic|regex)',
    },
  });
  const seeds = path.join(tmp, 'seeds.txt');
  const hosts = ['badloc', 'tofile', 'toftp'];
  fs.writeFileSync(seeds, hosts.map((x) => web.url(x, '/')).join('\n') + '\n');
  const webdb = path.join(tmp, 'webdb');
  await inject(conf, { webdb, seeds });
  const seg = (await generate(conf, webdb, path.join(tmp, 'segments'), {})).segments[0]!;
  const summary = await fetch(conf, seg);
  assert.ok(summary.complete, 'every fetchlist URL has a record');
  const s = Segment.open(seg);
  try {
    for (const x of hosts) {
      const r = s.getFetch(web.url(x, '/'));
      assert.ok(r, `a record for ${x}`);
      assert.is(r!.status, 'fetch_success', `${x}: ${r!.status} ${r!.message}`);
    }
  } finally {
    s.close();
  }
  const db = openWebDb(webdb);
  try {
    for (const x of hosts) {
      const row = db.robots(web.origin(x));
      assert.ok(!row?.txt?.includes('LOCAL-FILE-CONTENT'), `${x}: a local file's text kept as robots.txt`);
      assert.is(row?.status, 'allow_all', `${x}: no robots.txt reached, as after a 404`);
    }
  } finally {
    db.close();
  }
});

test.run();

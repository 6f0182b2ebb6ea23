/**
 * The fetcher against a hostile web on loopback (test/fixtures/hostile.ts):
 * every fault ends in a fetch record with a status and a reason (or a parse
 * record that says what became of the body), a well-behaved host beside the
 * hostile ones is fetched without waiting for them, and the process's memory
 * stays under a stated bound while 100 MB bodies, gzip bombs and a page of
 * 100,000 links go by.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fetch } from '../../crawler/fetch/tool.js';
import { inject } from '../../crawler/inject.js';
import { generate } from '../../crawler/generate.js';
import { Conf } from '../../shared/conf.js';
import { Segment } from '../../segments/segment.js';
import * as h from '../fixtures/hostile.js';

/** Peak RSS growth allowed over the whole fetch (bytes). The content limit is 8 MiB a page. */
const MEMORY_BOUND = 256 << 20;
const GOOD_PAGES = 20;

let web: h.HostileWeb;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-hostile-'));

test.before(async () => {
  const goodPages: Record<string, h.Behaviour> = {};
  for (let i = 0; i < GOOD_PAGES; i++) goodPages[`/p${i}`] = h.ok(`<title>good ${i}</title><p>page ${i}</p><a href="/p${(i + 1) % GOOD_PAGES}">next</a>`);
  const manyLinks = `<title>links</title>${Array.from({ length: 100_000 }, (_, i) => `<a href="/l${i}">l</a>`).join('')}`;
  const traps = [
    `<a href="/${'y'.repeat(65536)}">64 KiB</a>`,
    '<a href="x/x/x/">repeat</a>',
    `<a href="/${Array.from({ length: 40 }, (_, i) => `d${i}`).join('/')}">deep</a>`,
    '<a href="/s?sid=8d7f6e">session</a>',
    '<a href="/cal/2026/01/01/01">calendar</a>',
    '<a href="/fine">fine</a>',
  ].join('');
  web = await h.startHostileWeb('127.0.9', {
    good: { '/robots.txt': h.ok('User-agent: *\nAllow: /\n', { 'content-type': 'text/plain' }), ...goodPages },
    bad: {
      '/reset': h.reset(),
      '/short': h.shortBody(),
      '/long': h.longBody(),
      '/badchunk': h.badChunks(),
      '/drip': h.drip(),
      '/loop1': h.redirect('/loop2'),
      '/loop2': h.redirect('/loop1'),
      ...Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`/chain${i}`, h.redirect(`/chain${i + 1}`)])),
      '/to-file': h.redirect('file:///etc/passwd'),
      '/to-js': h.redirect('javascript:alert(1)'),
      '/to-data': h.redirect('data:text/html,<script>alert(1)</script>'),
      '/to-meta': h.redirect('http://169.254.169.254/latest/meta-data/'),
      '/to-meta6': h.redirect('http://[fd00:ec2::254]/latest/meta-data/'),
      '/to-ll': h.redirect('http://[fe80::1]/'),
      '/nul': h.ok('<html>\0<title>nul</title><a href="/fine">fine</a></html>'),
      '/badutf8': h.answer(200, Buffer.concat([Buffer.from('<title>bad '), Buffer.from([0xc3, 0x28, 0xff, 0xfe]), Buffer.from(' utf8</title>')]), {
        'content-type': 'text/html; charset=utf-8',
      }),
      '/charset': h.ok('<title>unknown charset</title><p>words</p>', { 'content-type': 'text/html; charset=x-no-such-charset' }),
      '/headers': h.hugeHeaders(5000, 1),
      '/header': h.hugeHeaders(1, 1 << 20),
      '/zstd': h.ok('<title>zstd</title>', { 'content-encoding': 'zstd' }),
      '/encodings': h.ok('<title>four</title>', { 'content-encoding': 'gzip, gzip, gzip, gzip' }),
      '/bomb': h.gzipBombAnswer(200 << 20),
      '/huge': h.huge(100 << 20),
      '/html-as-image': h.ok('<title>really html</title>', { 'content-type': 'image/png' }),
      '/image-as-html': h.answer(200, Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(500, 1)])),
      '/traps': h.ok(`<title>traps</title>${traps}`),
      '/fine': h.ok('<title>fine</title>'),
    },
    // Parsed inline as soon as the run starts, while the good host is still being fetched.
    heavy: {
      '/links': h.ok(manyLinks),
      '/deep': h.ok(`<title>deep</title>${'<div>'.repeat(100_000)}bottom${'</div>'.repeat(100_000)}`),
      '/deep-open': h.ok(`<title>deep open</title>${'<div><span>'.repeat(50_000)}bottom <a href="/links">below</a>`),
    },
    mute: { '/robots.txt': h.silent(), '/': h.ok('never asked') },
    rbhuge: { '/robots.txt': h.huge(5 << 20, 'text/plain'), '/': h.ok('<title>rb huge</title>') },
    rbbinary: { '/robots.txt': h.answer(200, Buffer.from([0, 1, 2, 0xff, 0x89, 0x50]), { 'content-type': 'application/octet-stream' }), '/': h.ok('x') },
    rbhtml: { '/robots.txt': h.ok('<html><body>Disallow: /</body></html>'), '/': h.ok('<title>rb html</title>') },
    rb404: { '/': h.ok('<title>rb 404</title>') },
    rb500: { '/robots.txt': h.answer(500, 'oops'), '/': h.ok('x') },
    rb429: { '/robots.txt': h.answer(429, 'slow down'), '/': h.ok('x') },
    rbreset: { '/robots.txt': h.reset(), '/': h.ok('x') },
  });
});

test.after(async () => {
  await web?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

test('each fault ends in a recorded status and reason; the good host goes on; memory stays bounded', async () => {
  const conf = Conf.load({
    overrides: {
      'http.agent.name': 'HzTest',
      'fetcher.server.delay': '0.02',
      'fetcher.threads.fetch': '16',
      'http.timeout': '1000',
      'http.timeout.total': '5000',
      'http.redirect.max': '3',
      'fetcher.max.exceptions.per.queue': '-1',
    },
  });
  const seeds = path.join(tmp, 'seeds.txt');
  const badPaths = [
    '/reset', '/short', '/long', '/badchunk', '/drip', '/loop1', '/chain0', '/to-file', '/to-js', '/to-data', '/to-meta', '/to-meta6', '/to-ll',
    '/nul', '/badutf8', '/charset', '/headers', '/header', '/zstd', '/encodings', '/bomb', '/huge', '/html-as-image', '/image-as-html', '/traps',
  ];
  const urls = [
    ...Array.from({ length: GOOD_PAGES }, (_, i) => web.url('good', `/p${i}`)),
    ...badPaths.map((p) => web.url('bad', p)),
    ...['/links', '/deep', '/deep-open'].map((p) => web.url('heavy', p)),
    ...['mute', 'rbhuge', 'rbbinary', 'rbhtml', 'rb404', 'rb500', 'rb429', 'rbreset'].map((x) => web.url(x, '/')),
  ];
  fs.writeFileSync(seeds, urls.join('\n') + '\n');
  const webdb = path.join(tmp, 'webdb');
  await inject(conf, { webdb, seeds });
  const g = await generate(conf, webdb, path.join(tmp, 'segments'), {});
  const seg = g.segments[0]!;

  global.gc?.();
  const base = process.memoryUsage().rss;
  let peak = base;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const started = Date.now();
  let summary;
  try {
    // Parsed inline, on the fetcher's event loop: 100,000 nested elements and 100,000 links go by with the other hosts.
    summary = await fetch(conf, seg, { parse: true });
  } finally {
    clearInterval(sampler);
  }
  const elapsed = Date.now() - started;
  let goodGap = 0;
  assert.ok(summary.complete, 'every fetchlist URL has a record');

  const s = Segment.open(seg);
  try {
    const rec = (host: string, p: string) => s.getFetch(web.url(host, p));
    const parse = (host: string, p: string) => s.getParse(web.url(host, p));
    // [path, fetch status, reason in the record's message (or the parse's), parse status when parsed]
    const table: [string, RegExp, RegExp | null, string | null][] = [
      ['/reset', /fetch_retry/, /ECONNRESET|other side closed|terminated|socket/i, null],
      ['/short', /fetch_retry/, /content-length/i, null],
      ['/long', /fetch_success|fetch_retry/, null, null],
      ['/badchunk', /fetch_retry/, /chunk|parse|invalid|HPE/i, null],
      ['/drip', /fetch_retry/, /not complete within 5000 ms \(http\.timeout\.total\)|body stalled/, null],
      ['/loop2', /fetch_redir_temp|fetch_retry|fetch_gone/, /redirect loop/, null],
      ['/to-file', /fetch_redir_temp/, /Location file:\/\/\/etc\/passwd is a local file: a web page never leads the crawler there/, null],
      ['/to-js', /fetch_redir_temp/, /dropped by the normalizers/, null],
      ['/to-data', /fetch_redir_temp/, /dropped by the normalizers/, null],
      ['/nul', /fetch_success/, null, 'success'],
      ['/badutf8', /fetch_success/, null, 'success'],
      ['/charset', /fetch_success/, null, 'success'],
      ['/headers', /fetch_retry/, /response headers larger than \d+ bytes/, null],
      ['/header', /fetch_retry/, /response headers larger than \d+ bytes/, null],
      ['/zstd', /fetch_retry/, /unsupported Content-Encoding zstd/, null],
      ['/encodings', /fetch_retry/, /too many Content-Encodings: gzip, gzip, gzip, gzip/, null],
      ['/bomb', /fetch_success/, null, null],
      ['/huge', /fetch_success/, null, null],
      ['/html-as-image', /fetch_success/, /no parser for content type image\/png/, 'notparsed'],
      ['/image-as-html', /fetch_success/, /image\/png/, 'notparsed'],
      ['/traps', /fetch_success/, null, 'success'],
    ];
    const wrong: string[] = [];
    for (const [p, status, why, parsed] of table) {
      const r = rec('bad', p);
      const pr = parse('bad', p);
      const seen = `${p}: ${r?.status} "${r?.message}" parse ${pr?.status} "${pr?.message}"`;
      if (!r || !status.test(r.status) || (why && !why.test(`${r.message ?? ''} ${pr?.message ?? ''}`)) || (parsed && pr?.status !== parsed)) wrong.push(seen);
    }
    assert.equal(wrong, [], wrong.join('\n'));
    // Redirects into the machine's own services end at the connection, each with its reason.
    for (const [target, why] of [
      ['http://169.254.169.254/latest/meta-data/', /cloud metadata address; not connecting/],
      ['http://[fd00:ec2::254]/latest/meta-data/', /cloud metadata address; not connecting/],
      ['http://[fe80::1]/', /link-local address; not connecting/],
    ] as const) {
      const r = s.getFetch(target);
      assert.ok(r, `a record for ${target}`);
      assert.is(r!.httpStatus, null);
      assert.match(r!.message ?? '', why);
    }
    // A chain longer than http.redirect.max leaves its next target for a later cycle.
    const chainEnd = s.getFetch(web.url('bad', '/chain3'));
    assert.match(chainEnd?.message ?? '', /more than 3 redirects \(http\.redirect\.max\)/);
    assert.is(web.hits('bad', '/chain4'), 0);

    // Bodies: truncated at the content limit, never held whole.
    for (const p of ['/bomb', '/huge']) {
      const c = s.getContent(web.url('bad', p));
      assert.ok(c?.truncated, `${p} truncated`);
      assert.ok(c!.bytes.length <= 8 << 20, `${p}: ${c!.bytes.length} bytes kept`);
    }
    assert.is(s.getParse(web.url('bad', '/nul'))!.title, 'nul');
    assert.ok(s.getParse(web.url('bad', '/badutf8'))!.title.includes('\ufffd'), 'invalid UTF-8 becomes U+FFFD');
    assert.is(s.getParse(web.url('bad', '/charset'))!.title, 'unknown charset');
    // A page of 100,000 links keeps db.max.outlinks.per.page of them and counts the rest; nesting is capped, the text and links below kept.
    for (const p of ['/links', '/deep', '/deep-open']) assert.is(rec('heavy', p)?.status, 'fetch_success', p);
    const links = parse('heavy', '/links')!;
    assert.is(links.outlinks.length, 100, 'db.max.outlinks.per.page');
    assert.equal(links.meta.outlinksDropped, { cap: 99_900, filtered: 0, external: 0 });
    assert.match(parse('heavy', '/deep')!.text, /bottom/);
    assert.match(parse('heavy', '/deep-open')!.text, /bottom below/);
    assert.equal(parse('heavy', '/deep-open')!.outlinks.map((l) => l.url), [web.url('heavy', '/links')]);
    // Traps: the 64 KiB URL, the repeated segment, the 40-deep path and the repeated date part are dropped; the session id is cut off.
    assert.equal(s.getParse(web.url('bad', '/traps'))!.outlinks.map((l) => l.url), [web.url('bad', '/s'), web.url('bad', '/fine')]);

    // robots.txt that is huge, binary, HTML, missing, 5xx, 429, reset or silent: each page still ends with a record.
    for (const x of ['mute', 'rbhuge', 'rbbinary', 'rbhtml', 'rb404', 'rb500', 'rb429', 'rbreset']) {
      const r = rec(x, '/');
      assert.ok(r, `a record for ${x}/`);
      assert.ok(r!.status === 'fetch_success' || r!.message, `${x}: ${r!.status} needs a reason`);
    }
    assert.is(rec('rb404', '/')!.status, 'fetch_success', 'no robots.txt: allowed');
    assert.is(rec('rbhtml', '/')!.status, 'fetch_success', 'an HTML robots.txt has no rules');
    assert.is(rec('rbhuge', '/')!.status, 'fetch_success');
    assert.is(web.hits('mute', '/'), 0, 'a host whose robots.txt never answers is not fetched');

    // The good host: every page, and no wait behind the hostile hosts.
    for (let i = 0; i < GOOD_PAGES; i++) assert.is(rec('good', `/p${i}`)?.status, 'fetch_success', `good /p${i}`);
    const arrivals = web.arrivals('good');
    const gaps = arrivals.slice(1).map((t, i) => t - arrivals[i]!);
    goodGap = Math.max(...gaps);
    // The heavy pages were parsed while the good host was being fetched, so a parse holding the event loop would show in its gaps.
    const heavy = web.arrivals('heavy');
    assert.ok(heavy[heavy.length - 1]! < arrivals[arrivals.length - 1]!, 'the heavy pages arrive before the good host is done');
    assert.ok(Math.max(...gaps) < 1000, `the good host never waited an http.timeout for others: gaps ${gaps.join(',')} ms`);
  } finally {
    s.close();
  }
  const grew = peak - base;
  console.log(`  hostile fetch with inline parsing: ${elapsed} ms, largest gap on the good host ${goodGap} ms, peak RSS growth ${(grew / 1048576).toFixed(0)} MiB (bound ${MEMORY_BOUND >> 20} MiB)`);
  assert.ok(grew < MEMORY_BOUND, `RSS grew ${(grew / 1048576).toFixed(0)} MiB`);
});

test.run();

/** parsechecker against the test web: a page with links and meta, robots.txt, a 404, redirects, stdin. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestWeb, type TestWeb } from '../../fixtures/testweb.js';
import { hz, tempConf } from './run-cli.js';

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Kestrel field notes</title>
<meta name="robots" content="noindex">
<link rel="canonical" href="/notes/index.html#top">
</head><body>
<nav><a href="/">Home</a></nav>
<h1>Field notes</h1>
<p>The kestrel hovers over open country, scanning the grass for voles and beetles before it drops.</p>
<p>See <a href="./birds/falcon.html#diet">the falcon page</a>, <a href="/img/kestrel.gif">a photo</a>,
<a href="http://127.0.9.2/maps?id=4">a map</a> and <a href="javascript:void(0)">nothing</a>.</p>
</body></html>`;

let web: TestWeb;
const conf = tempConf();
const AGENT = ['-D', 'http.agent.name=hazelcheck'];

test.before(async () => {
  web = await startTestWeb({
    block: '127.0.9',
    hosts: {
      a: {
        robots: 'User-agent: *\nDisallow: /private\n',
        pages: {
          '/notes/': PAGE,
          '/private/plan': '<title>Secret plan</title><p>hidden words</p>',
          '/moved': { status: 301, location: '/notes/' },
          '/loop': { status: 302, location: '/loop' },
          '/refresh': '<meta http-equiv="refresh" content="5; url=/notes/"><title>Old</title>',
          '/plain': { body: 'just text, no markup', contentType: 'text/plain' },
        },
      },
      b: { pages: { '/maps': 'map' } },
    },
  });
});
test.after(async () => {
  await web.stop();
  conf.cleanup();
});

const run = (args: string[], stdin?: string) => hz(['parsechecker', ...AGENT, ...args], { confDir: conf.dir, stdin });
const field = (out: string, key: string) => new RegExp(`^${key}: +(.*)$`, 'm').exec(out)?.[1];

test('a page with links: status, type, charset, title, language, signature, meta, normalized outlinks, text', async () => {
  const url = web.url('a', '/notes/');
  const r = await run([url]);
  assert.is(r.code, 0, r.err + r.out);
  assert.is(field(r.out, 'url'), url);
  assert.match(field(r.out, 'fetch')!, /^fetch_success \(success, HTTP 200\) in \d+ ms$/);
  assert.is(field(r.out, 'contentType'), 'text/html');
  assert.is(field(r.out, 'charset'), 'utf-8 (from header)');
  assert.is(field(r.out, 'parse'), 'success');
  assert.is(field(r.out, 'title'), 'Kestrel field notes');
  assert.is(field(r.out, 'lang'), 'en');
  assert.match(field(r.out, 'signature')!, /^[0-9a-f]{16,}$/);
  assert.is(field(r.out, 'noindex'), 'yes');
  assert.is(field(r.out, 'nofollow'), 'no');
  assert.is(field(r.out, 'refresh'), '(none)');
  assert.is(field(r.out, 'canonical'), web.url('a', '/notes/index.html'));
  // Relative links resolved, fragments dropped, the .gif and the ?query URL filtered, javascript: dropped.
  assert.is(field(r.out, 'outlinks'), '3 (of 5 in the page)');
  const links = r.out.split('\n').filter((l) => l.startsWith('  http'));
  assert.equal(links, [
    `  ${web.url('a', '/notes/index.html')}\t`,
    `  ${web.url('a', '/')}\tHome\t[nav]`,
    `  ${web.url('a', '/notes/birds/falcon.html')}\tthe falcon page`,
  ]);
  assert.match(field(r.out, 'text')!, /^\(\d+ characters\)$/, 'a short text is shown whole');
  assert.ok(r.out.includes('The kestrel hovers over open country'));
  // The fetcher's User-Agent: http.agent.name, then http.agent.version.
  assert.equal(web.requestsTo('a').map((q) => [q.path, String(q.headers['user-agent']).split('/')[0]]), [
    ['/robots.txt', 'hazelcheck'],
    ['/notes/', 'hazelcheck'],
  ]);
});

test('-textLength and -dumpText bound the text printed', async () => {
  const url = web.url('a', '/notes/');
  const short = await run(['-textLength', '12', url]);
  const total = Number(/of (\d+) characters/.exec(short.out)![1]);
  assert.ok(total > 90, `text of ${total} characters`);
  assert.ok(short.out.endsWith(`text:        (first 12 of ${total} characters; -dumpText for all)\nField notes \n`), short.out);
  const all = await run(['-dumpText', '-textLength', '12', url]);
  assert.match(all.out, new RegExp(`text: +\\(${total} characters\\)\\nField notes The kestrel .* beetles before it drops\\. See the falcon page`));
});

test('a robots-disallowed URL is not requested and exits 1; -noRobots fetches it', async () => {
  web.reset();
  const url = web.url('a', '/private/plan');
  const denied = await run([url]);
  assert.is(denied.code, 1);
  assert.is(field(denied.out, 'fetch'), 'fetch_gone (robots_denied): denied by robots.txt');
  assert.match(denied.out, /-noRobots fetches it anyway/);
  assert.not.match(denied.out, /title:/);
  assert.equal(web.requestsTo('a').map((q) => q.path), ['/robots.txt']);
  const forced = await run(['-noRobots', url]);
  assert.is(forced.code, 0, forced.out);
  assert.is(field(forced.out, 'title'), 'Secret plan');
  assert.equal(web.requestsTo('a').map((q) => q.path), ['/robots.txt', '/private/plan']);
});

test('a 404 and an unreachable host exit 1 with the fetch status; nothing is parsed', async () => {
  const missing = await run([web.url('a', '/nowhere')]);
  assert.is(missing.code, 1);
  assert.is(field(missing.out, 'fetch')?.replace(/ in \d+ ms/, ''), 'fetch_gone (notfound, HTTP 404)');
  assert.not.match(missing.out, /parse:/);
  const down = await run(['-noRobots', '-D', 'http.timeout=2s', 'http://127.0.9.250:9/']);
  assert.is(down.code, 1);
  assert.match(field(down.out, 'fetch')!, /^fetch_retry \(exception\): ECONNREFUSED/);
});

test('redirects: shown and not followed by default; -followRedirects follows them; loops end', async () => {
  const moved = await run([web.url('a', '/moved')]);
  assert.is(moved.code, 1);
  assert.match(field(moved.out, 'fetch')!, new RegExp(`^fetch_redir_perm \\(moved, HTTP 301\\) in \\d+ ms -> ${web.url('a', '/notes/')}: not followed \\(-followRedirects follows it\\)$`));
  const followed = await run(['-followRedirects', web.url('a', '/moved')]);
  assert.is(followed.code, 0, followed.out);
  assert.equal(
    followed.out.split('\n').filter((l) => /^(url|fetch):/.test(l)).map((l) => l.replace(/ in \d+ ms/, '')),
    [`url:         ${web.url('a', '/moved')}`, `fetch:       fetch_redir_perm (moved, HTTP 301) -> ${web.url('a', '/notes/')}`, `url:         ${web.url('a', '/notes/')}`, 'fetch:       fetch_success (success, HTTP 200)'],
  );
  assert.is(field(followed.out, 'title'), 'Kestrel field notes');
  const loop = await run(['-followRedirects', web.url('a', '/loop')]);
  assert.is(loop.code, 1);
  assert.match(field(loop.out, 'fetch')!, /redirect loop: /);
});

test('meta refresh, a text page, and URLs from stdin (one block each)', async () => {
  const r = await run([], `${web.url('a', '/refresh')}\n\n${web.url('a', '/plain')}\nnot a url\n`);
  assert.is(r.code, 1, 'the malformed line fails the run');
  const blocks = r.out.split('\n\n');
  assert.is(blocks.length, 3);
  assert.is(field(blocks[0]!, 'refresh'), `5 s -> ${web.url('a', '/notes/')}`);
  assert.is(field(blocks[1]!, 'contentType'), 'text/plain');
  assert.match(blocks[1]!, /\njust text, no markup\n?$/);
  assert.is(field(blocks[2]!, 'fetch'), 'not an absolute URL (stdin:4)');
});

test('without http.agent.name it refuses to fetch, as the fetcher does', async () => {
  const r = await hz(['parsechecker', web.url('a', '/notes/')], { confDir: conf.dir });
  assert.is(r.code, 1);
  assert.match(r.err, /http\.agent\.name is empty/);
  assert.is(r.out, '');
});

test.run();

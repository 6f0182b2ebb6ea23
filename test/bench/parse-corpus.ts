/**
 * Pages to parse, as a fetch stores them: the generated web of the crawl
 * benchmark (crawl-web.ts), devweb's real documentation read from the site
 * roots its `serve.sh sites` names (none when devweb is absent), and pages
 * written to meet the parse's edge cases (entities, Unicode spaces, control
 * characters, odd and hostile links). The parse benchmark times them; the
 * output comparison (parse-output.ts) parses them with two versions of the
 * code and compares every record; both load a checkout's parse here.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ContentRecord, FetchRecord } from '../../segments/segment.js';
import { devwebDir } from './ranking/devweb.js';
import { page, pagePath } from './crawl-web.js';

export interface CorpusPage {
  url: string;
  bytes: Buffer;
  /** The Content-Type header as served, when there was one. */
  contentType: string | null;
  headers: Record<string, string>;
}

/** The hosts a crawl seeded with every page's origin allows (urlfilter.host.allow). */
export const hostsOf = (pages: CorpusPage[]) => [...new Set(pages.map((p) => new URL(p.url).host))].join(',');

/** parseContent of the checkout at `root`, under the configuration its own Conf loads with `opts`. */
export async function checkoutParse(
  root: string,
  opts: { resources?: string[]; overrides: Record<string, string> },
): Promise<(content: ContentRecord, fetch: FetchRecord) => Promise<Record<string, unknown>>> {
  // The first of the module's paths the checkout has: older checkouts lay the crawler out otherwise.
  const load = (...files: string[]) => import(pathToFileURL(path.join(root, files.find((f) => fs.existsSync(path.join(root, f))) ?? files[0]!)).href);
  if (fs.existsSync(path.join(root, 'crawler/builtins.ts'))) await load('crawler/builtins.ts');
  const [{ parseContent }, { loadCrawlerPlugins }, { Conf }] = await Promise.all([
    load('crawler/parse/parse-content.ts', 'crawler/parse/index.ts'),
    load('crawler/plugin/chains.ts', 'crawler/plugins.ts'),
    load('shared/conf.ts'),
  ]);
  const conf = Conf.load(opts);
  const plugins = await loadCrawlerPlugins(conf);
  return (content, fetch) => parseContent(plugins, conf, content, fetch);
}

const html = (url: string, body: string | Buffer, contentType: string | null = 'text/html; charset=utf-8', headers: Record<string, string> = {}): CorpusPage => ({
  url,
  bytes: typeof body === 'string' ? Buffer.from(body) : body,
  contentType,
  headers,
});

/** Pages of the crawl benchmark's web: `hosts` hosts of `pages` pages, on the origins a crawl of it would see. */
export function generatedWebPages(hosts = 2, pages = 250): CorpusPage[] {
  const origins = Array.from({ length: 20 }, (_, h) => `http://127.0.15.${h + 1}:8000`);
  const out: CorpusPage[] = [];
  for (let h = 0; h < hosts; h++)
    for (let p = 0; p < pages; p++) out.push(html(origins[h]! + pagePath(p), page(h, p, origins.length, pages, origins)));
  return out;
}

/** devweb's HTML files as its server answers them (no charset in the header), sorted by URL; [] without devweb. */
export function devwebPages(): CorpusPage[] {
  const dir = devwebDir();
  if (!dir) return [];
  let sites: string;
  try {
    sites = execFileSync(path.join(dir, 'serve.sh'), ['sites'], { encoding: 'utf8', timeout: 10_000 });
  } catch {
    return [];
  }
  const out: CorpusPage[] = [];
  for (const line of sites.split('\n')) {
    const [hostPort, root] = line.split('\t');
    if (!hostPort || !root || !fs.existsSync(root)) continue;
    const walk = (d: string) => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const f = path.join(d, e.name);
        if (e.isDirectory()) walk(f);
        else if (e.isFile() && e.name.endsWith('.html')) out.push(html(`http://${hostPort}/${path.relative(root, f)}`, fs.readFileSync(f), 'text/html'));
      }
    };
    walk(root);
  }
  return out.sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
}

/** Links a crawler meets in the wild, relative and absolute, clean and not. */
const ODD_HREFS = [
  'a.html', './a.html', '../up.html', '../../../../top.html', '/abs/path.html', '//other.example/x', 'https://Example.COM./A%7e/b/../c',
  'http://127.0.15.1:80/default-port', 'HTTP://127.0.15.1:8000/Case', '?q=1', '?', '#frag', 'a.html#frag', 'a.html?x=1#f', '  spaced.html  ',
  'a b.html', 'ünïcode/päth.html', 'http://xn--bcher-kva.example/', 'http://bücher.example/', 'http://0x7f.1/', 'http://127.1/', 'http://[::1]:8000/v6',
  'a//b///c.html', '/./a/./b/.', '/a/%2e%2e/b', '/%7euser/%41%62?%7e=%zz', '/p%', 'mailto:someone@example.com', 'javascript:void(0)', 'data:text/html,hi',
  'ftp://files.example/f', 'file:///etc/passwd', 'x.gif', 'x.PNG', 'page.php?sid=abc&x=1', 'a;jsessionid=XYZ?y=2', 'q?&a=1&&b=2', 'trailing?',
  'a/b/a/b/a/b/a.html', `/${'d/'.repeat(40)}deep.html`, `/${'x'.repeat(3000)}`, 'http://user:pw@127.0.15.1:8000/auth', 'http://127.0.15.1:8000/%E2%82%AC',
  "it's.html?q='quoted'", 'a"b.html', '<x>.html', 'tab\there.html', 'new\nline.html', 'back\\slash.html', 'http:relative.html', 'HTTPS://127.0.15.2:8000',
  '\u00a0nbsp.html', 'a.html', 'a.html', './a.html#x',
];

/** Pages that meet the parse's edge cases, on the generated web's first host. */
export function edgeCasePages(): CorpusPage[] {
  const base = 'http://127.0.15.1:8000';
  const links = ODD_HREFS.map((h, i) => `<a href="${h.replace(/"/g, '&quot;')}">link ${i} ${h.length > 60 ? '' : h.replace(/</g, '&lt;')}</a>`).join('\n');
  const spaces = ['\t', '\n', '\v', '\f', '\r', ' ', '\u00a0', '\u1680', '\u2000', '\u2005', '\u200a', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff', '\u200b', '\u0085', '\u180e'];
  const spaced = spaces.map((s, i) => `w${i}${s}${s}x${i}${s}`).join('');
  const controls = 'nul\u0000bel\u0007esc\u001bdel\u007f and\u0001more\u001f end';
  return [
    html(`${base}/edge/links.html`, `<html><head><title>Links  of\tevery kind</title></head><body><main><p>${links}</p>
<area href="area.html" alt="an area"><area href="nofollow-area.html" rel="nofollow"><iframe src="frame.html"></iframe><frame src="/frame2.html">
<a href="nofollow.html" rel="Nofollow noopener">nf</a><a href="img.html"><img alt="Picture alt">text</a><a>no href</a><a href="">empty</a><a href="   ">blank</a>
<link rel="next" href="next.html"><link rel="stylesheet alternate" href="s.css"><link rel="canonical" href="/canon/ical.html"><link rel="icon prev" href="i.ico">
</main><nav><a href="/nav1.html">Nav one</a><a href="a.html">Nav a</a></nav></body></html>`),
    html(`${base}/edge/spaces.html`, `<html lang="en-GB"><head><title>\u00a0Spaces\u2003and   entities&nbsp;&amp;&lt;&#x1F600;&#128512;&bogus;&amp</title></head><body>
<p>${spaced}</p><p>  lead and trail  </p><div>a<b>b</b>c<br>d<span> e </span>f</div><pre>  pre\n  formatted  </pre><p>&nbsp;&nbsp;x&nbsp;&nbsp;</p>
<p>${controls}</p><p>&#0;&#1;&#x7f;&#x80;&#x9f;&#xfffe;&#x110000;</p><textarea>  area  </textarea><p>caf\u00e9 na\u0308ive \ud83d\ude00 \ud800 lone</p></body></html>`),
    html(`${base}/edge/base.html`, `<html><head><base href="/other/dir/"><meta http-equiv="refresh" content="5; URL='../refreshed.html'"><meta name="robots" content="NOINDEX, noarchive">
<meta http-equiv="Content-Language" content="de-DE, en"><meta name="description" content="  A   description\n"><meta name="keywords" content="k1,  k2"></head>
<body><h1 id="top">Base  page</h1><p>rel <a href="rel.html">relative to base</a> and <a href="/root.html">root</a> and <a href="http://127.0.15.2:8000/ext.html">external</a>.</p>
<section id="s1"><h2>Section one ¶</h2><p>text</p></section><a name="anchor2"></a><h3>Named by an anchor</h3><p>more</p><h2>Left open<div>block</div></body></html>`),
    html(`${base}/edge/nofollow.html`, `<html><head><meta name="robots" content="nofollow"><title>No follow</title></head><body><a href="x.html">x</a> words words words</body></html>`),
    html(`${base}/edge/furniture.html`, `<html><head><title>Furniture page</title></head><body><header><a href="/">Home</a> <a href="/docs">Docs</a></header>
<div class="navbar"><a href="/n1">N1</a> text</div><div id="toc"><ul><li><a href="#a">A</a></li></ul></div><main><h1>Furniture page</h1>
<p><a href="p1.html">Prev</a> <a href="up.html">Up</a> SQL <a href="n.html">Next</a></p><p>Real content, with one <a href="c.html">link</a> in a long sentence of prose.</p>
<button>Go</button><select><option>opt</option></select></main><footer>Footer <a href="/legal">legal</a></footer><script>var s = "<a href='no.html'>";</script>
<style>a{}</style><noscript><a href="ns.html">ns</a></noscript><svg><a href="svg.html"><text>svg text</text></a></svg><template><a href="t.html">t</a></template></body></html>`),
    html(`${base}/edge/nav-only.html`, `<html><body><nav><a href="/a">Only</a> <a href="/b">navigation</a> here</nav></body></html>`),
    html(`${base}/edge/latin1.html`, Buffer.from('<html><head><meta charset="iso-8859-1"><title>Caf\xe9 \xe0 la cr\xe8me</title></head><body><p>na\xefve \xa0r\xe9sum\xe9</p><a href="caf\xe9.html">caf\xe9</a></body></html>', 'latin1'), 'text/html'),
    html(`${base}/edge/no-type`, '<!doctype html><html><body><p>Served without a content type, sniffed as HTML. Enough words to be a page.</p><a href="x">x</a></body></html>', null),
    html(`${base}/edge/text.txt`, 'Plain text\n\twith\u00a0spaces and http://127.0.15.1:8000/in-text links.\n', 'text/plain'),
    html(`${base}/edge/french.html`, `<html><body><p>${'Le robot parcourt chaque page avec politesse et garde un délai entre deux requêtes vers le même hôte. '.repeat(4)}</p></body></html>`, 'text/html', {
      'content-language': '',
    }),
    html(`${base}/edge/header-lang.html`, '<html><body><p>Language from the header only.</p></body></html>', 'text/html; charset=utf-8', { 'content-language': 'pt-BR' }),
    html(`${base}/edge/nested.html`, `<html><body>${'<div><span>'.repeat(700)}deep text<a href="deep.html">deep</a>${'</span></div>'.repeat(700)}</body></html>`),
    html(`${base}/edge/binary.html`, Buffer.from([0x3c, 0x68, 0x74, 0x6d, 0x6c, 0x3e, 0x00, 0x01, 0x02, 0xff, 0xfe, 0x00, 0x00, 0x10])),
    html(`${base}/edge/empty.html`, ''),
  ];
}

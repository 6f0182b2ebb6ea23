/**
 * A generated documentation-like web for the crawl benchmark, served from its
 * own process: `tsx test/bench/crawl-web.ts '{"block":"127.0.15","hosts":20,"pages":500}'`
 * prints `{"origins":[…]}` once listening and stops when stdin closes.
 *
 * Every host is its own server on 127.<block>.<n>. A page is made on request
 * from (host, page) alone, so a 100,000-page web costs no memory: 10–20 KB of
 * prose from a fixed pool of paragraphs, a title, and 20 links — 6 in a
 * <nav> (home and section hubs), 12 to children (page·12+1 … page·12+12,
 * modulo the host's size, so every page is within 4 hops of `/`), one
 * "see also" on the same host and one to the same page on the next host.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Path of page p of a host: `/` for the home page. */
export const pagePath = (p: number): string => (p === 0 ? '/' : `/doc/${p}.html`);

/** Fetch rounds a crawl needs to reach every page of a host of n pages from `/`. */
export function roundsToReach(n: number): number {
  let reached = 1;
  let rounds = 1;
  for (let frontier = 1; reached < n; rounds++) {
    frontier *= 12;
    reached += frontier;
  }
  return rounds;
}

function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ten', 'ser', 'vo', 'ra', 'din', 'el', 'op', 'qu', 'ant', 'ix', 'por', 'ul', 'sta', 'ne', 'brin', 'cha', 'fel'];
const COMMON = ['the', 'a', 'of', 'to', 'and', 'in', 'is', 'for', 'on', 'with', 'when', 'each', 'that', 'by', 'as', 'from', 'this', 'it', 'be', 'or'];

/** A vocabulary of 5,000 made-up words, drawn with a skew so a few are frequent and most are rare. */
const VOCAB = (() => {
  const r = rng(7);
  return Array.from({ length: 5000 }, () => {
    let w = '';
    for (let k = 1 + Math.floor(r() * 3); k >= 0; k--) w += SYLLABLES[Math.floor(r() * SYLLABLES.length)];
    return w;
  });
})();

function words(r: () => number, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(r() < 0.4 ? COMMON[Math.floor(r() * COMMON.length)]! : VOCAB[Math.floor(r() ** 2 * VOCAB.length)]!);
  return out.join(' ');
}

const PARAGRAPHS = (() => {
  const r = rng(11);
  return Array.from({ length: 2000 }, () => `<p>${words(r, 60 + Math.floor(r() * 60))}.</p>\n`);
})();

const titleOf = (h: number, p: number) => {
  const r = rng(h * 100_003 + p + 1);
  return `${words(r, 3)} ${p}`;
};

export function page(h: number, p: number, hosts: number, n: number, origins: readonly string[]): string {
  const r = rng(h * 1_000_003 + p * 7 + 3);
  const link = (href: string, text: string) => `<a href="${href}">${text}</a>`;
  const nav = [link('/', 'Home'), ...[1, 2, 3, 4, 5].map((s) => link(pagePath(s % n), `Section ${s}`))].join(' | ');
  const children = Array.from({ length: 12 }, (_, k) => {
    const c = (p * 12 + k + 1) % n;
    return `<li>${link(pagePath(c), titleOf(h, c))}</li>`;
  }).join('');
  const also = Math.floor(r() * n);
  const next = (h + 1) % hosts;
  const size = 10_000 + Math.floor(r() * 10_000);
  let body = '';
  while (body.length < size) body += PARAGRAPHS[Math.floor(r() * PARAGRAPHS.length)];
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${titleOf(h, p)}</title></head><body>
<nav>${nav}</nav>
<main><h1>${titleOf(h, p)}</h1>
${body}<ul>${children}</ul>
<p>See also ${link(pagePath(also), titleOf(h, also))} and ${link(origins[next]! + pagePath(p), titleOf(next, p))}.</p>
</main><footer>Host ${h} page ${p}</footer></body></html>`;
}

const ROBOTS = 'User-agent: *\nDisallow: /private/\n';

if (import.meta.url === `file://${process.argv[1]}`) {
  const { block, hosts, pages } = JSON.parse(process.argv[2] ?? '{}') as { block: string; hosts: number; pages: number };
  const origins: string[] = [];
  const servers = await Promise.all(
    Array.from({ length: hosts }, (_, h) => {
      const server = http.createServer((req, res) => {
        const url = req.url ?? '/';
        if (url === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end(ROBOTS);
        const m = url === '/' ? ['', '0'] : /^\/doc\/(\d+)\.html$/.exec(url);
        const p = m ? Number(m[1]) : -1;
        if (p < 0 || p >= pages) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(h, p, hosts, pages, origins));
      });
      server.keepAliveTimeout = 30_000;
      return new Promise<http.Server>((resolve) => server.listen(0, `${block}.${h + 1}`, () => resolve(server)));
    }),
  );
  for (const s of servers) origins.push(`http://${(s.address() as AddressInfo).address}:${(s.address() as AddressInfo).port}`);
  process.stdout.write(JSON.stringify({ origins }) + '\n');
  const stop = () => {
    for (const s of servers) s.closeAllConnections(), s.close();
    process.exit(0);
  };
  process.stdin.on('end', stop);
  process.stdin.resume();
  process.on('SIGTERM', stop);
}

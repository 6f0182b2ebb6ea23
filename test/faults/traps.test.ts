/**
 * Crawler traps over several rounds: `hazelnut crawl -depth 4` (the real CLI)
 * on three trap hosts beside a documentation site. A calendar that always has
 * a next day, path session ids that give every link a new URL (each page
 * links eight pages, so the due URLs grow eightfold a round), and paths that
 * grow ten segments deeper a round (with a repeated segment and a 2,100
 * character URL beside each). The defences bound each trap: no round takes
 * more than generate.max.count URLs of one host (set low here, 25, to keep the
 * test short), and no URL past url.max.length, url.max.path.depth or
 * url.max.segment.repeats is stored; the documentation site is crawled whole.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openWebDb } from '../../crawler/webdb/webdb.js';
import { Conf } from '../../shared/conf.js';
import { urlLimitBreach, urlLimits } from '../../crawler/url/limits.js';
import { listSegments, Segment } from '../../segments/segment.js';
import * as h from '../fixtures/hostile.js';
import { ROOT, runBin } from '../fixtures/run-bin.js';

const HAZELNUT = path.join(ROOT, 'crawler', 'hazelnut.js');
const CAP = 25;
const DEPTH = 4;
const FANOUT = 8;

const page = (title: string, links: string[]) =>
  h.ok(`<!doctype html><title>${title}</title><p>${title}</p>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}`);

/** `/cal/2026/01/31` links the next day, the same day next month and next year. */
function calendar(): h.Behaviour {
  return (sock, url, web) => {
    const m = /^\/cal\/(\d+)\/(\d+)\/(\d+)$/.exec(url);
    const start = url === '/' ? '/cal/2026/01/01' : null;
    if (!m && !start) return h.answer(404, 'no')(sock, url, web);
    const links = start
      ? [start]
      : (() => {
          const d = new Date(Date.UTC(+m![1]!, +m![2]! - 1, +m![3]!));
          const at = (x: Date) => `/cal/${x.getUTCFullYear()}/${String(x.getUTCMonth() + 1).padStart(2, '0')}/${String(x.getUTCDate()).padStart(2, '0')}`;
          const next = (f: (x: Date) => void) => {
            const x = new Date(d);
            f(x);
            return at(x);
          };
          return [next((x) => x.setUTCDate(x.getUTCDate() + 1)), next((x) => x.setUTCMonth(x.getUTCMonth() + 1)), next((x) => x.setUTCFullYear(x.getUTCFullYear() + 1))];
        })();
    page(`calendar ${url}`, links)(sock, url, web);
  };
}

/** Cookieless sessions in the path (`/(S(token))/p3`): every link carries a token never seen before. */
function sessions(): h.Behaviour {
  let token = 0;
  return (sock, url, web) =>
    page(
      `session ${url}`,
      Array.from({ length: FANOUT }, (_, i) => `/(S(${(++token).toString(36).padStart(8, 'k')}))/p${i}`),
    )(sock, url, web);
}

/** A page at /P/ links /P/ plus ten new segments, /P/ plus its last segment three times more, and a 2,100-character URL. */
function deeper(): h.Behaviour {
  return (sock, url, web) => {
    const depth = url.split('/').filter(Boolean).length;
    const last = url.split('/').filter(Boolean).pop() ?? 'top';
    const down = Array.from({ length: 10 }, (_, i) => `d${depth + i}`).join('/');
    page(`path ${depth}`, [`${url}${down}/`, `${url}${last}/${last}/${last}/`, `${url}${'y'.repeat(2100)}`])(sock, url, web);
  };
}

/** A documentation site: / → 5 chapters → 5 pages each (31 pages). */
function docs(): Record<string, h.Behaviour> {
  const pages: Record<string, h.Behaviour> = { '/': page('docs home', [0, 1, 2, 3, 4].map((c) => `/c${c}/`)) };
  for (let c = 0; c < 5; c++) {
    pages[`/c${c}/`] = page(`chapter ${c}`, [0, 1, 2, 3, 4].map((p) => `/c${c}/p${p}.html`).concat('/'));
    for (let p = 0; p < 5; p++) pages[`/c${c}/p${p}.html`] = page(`chapter ${c} page ${p}`, [`/c${c}/`, '/']);
  }
  return pages;
}

let web: h.HostileWeb;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-traps-'));

test.before(async () => {
  web = await h.startHostileWeb('127.0.23', { docs: docs(), cal: { '*': calendar() }, sess: { '*': sessions() }, deep: { '*': deeper() } });
});

test.after(async () => {
  await web?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

test(`traps over ${DEPTH} rounds stay within the defences; the documentation site is crawled whole`, async () => {
  const seeds = path.join(tmp, 'seeds.txt');
  fs.writeFileSync(seeds, ['docs', 'cal', 'sess', 'deep'].map((x) => web.url(x, '/')).join('\n') + '\n');
  const dir = path.join(tmp, 'crawl');
  const defs = { 'http.agent.name': 'HzTest', 'fetcher.server.delay': '0', 'generate.max.count': String(CAP), 'crawl.sitemaps': 'false' };
  const r = await runBin(HAZELNUT, [...Object.entries(defs).flatMap(([k, v]) => ['-D', `${k}=${v}`]), 'crawl', seeds, '-dir', dir, '-depth', String(DEPTH), '-threads', '8'], 180_000);
  assert.is(r.code, 0, r.err);

  const hostOf = Object.fromEntries(['docs', 'cal', 'sess', 'deep'].map((x) => [new URL(web.url(x)).host, x]));
  const segments = listSegments(path.join(dir, 'segments'));
  assert.is(segments.length, DEPTH, 'one segment a round');
  const perRound: Record<string, number>[] = segments.map((name) => {
    const s = Segment.open(path.join(dir, 'segments', name), { readonly: true });
    try {
      const n: Record<string, number> = {};
      for (const e of s.fetchlist()) n[hostOf[new URL(e.url).host]!] = (n[hostOf[new URL(e.url).host]!] ?? 0) + 1;
      return n;
    } finally {
      s.close();
    }
  });
  for (const [i, n] of perRound.entries()) for (const [host, count] of Object.entries(n)) assert.ok(count <= CAP, `round ${i + 1}: ${count} URLs of ${host}`);
  // The session trap filled its share in the last two rounds, and more of it is still due: the cap, not the trap, ended it.
  assert.is(perRound[2]!.sess, CAP);
  assert.is(perRound[3]!.sess, CAP);

  const limits = urlLimits(Conf.load());
  const db = openWebDb(path.join(dir, 'webdb'), { readonly: true });
  try {
    const fetched: Record<string, number> = {};
    const stored: Record<string, number> = {};
    const breaches: string[] = [];
    for (const p of db.pages()) {
      const host = hostOf[new URL(p.url).host]!;
      stored[host] = (stored[host] ?? 0) + 1;
      if (p.status === 'db_fetched') fetched[host] = (fetched[host] ?? 0) + 1;
      const why = urlLimitBreach(p.url, limits);
      if (why) breaches.push(`${p.url.slice(0, 120)}: ${why}`);
    }
    assert.equal(breaches, [], 'no stored URL breaks url.max.length, url.max.path.depth or url.max.segment.repeats');
    assert.is(fetched.docs, 31, 'the documentation site, whole');
    assert.ok(fetched.sess! <= 1 + FANOUT + 2 * CAP, `session trap: ${fetched.sess} fetched`);
    assert.ok(stored.sess! > fetched.sess! + CAP, `session trap: ${stored.sess} stored, the rest due`);
    assert.is(fetched.deep, DEPTH, 'one page a round: the ten-segment steps stop at url.max.path.depth');
    assert.ok(fetched.cal! <= DEPTH * CAP);
    console.log(`  traps: fetched ${JSON.stringify(fetched)}, stored ${JSON.stringify(stored)}, per round ${JSON.stringify(perRound)}`);
  } finally {
    db.close();
  }
  assert.match(r.out, /links dropped\s+\d+ \(\d+ by URL filters/);
});

test.run();

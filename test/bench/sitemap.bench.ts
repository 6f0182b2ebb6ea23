/**
 * Sitemap reading, and the price of one XML reader: parseSitemap on
 * generated sitemaps, and its reader (shared/xml.ts, forgiving) beside
 * htmlparser2 in XML mode, both sending their events to one collector of
 * the entries' fields, in the same rounds; then what importing htmlparser2 costs a fresh
 * process — what every command would pay at start if its configuration
 * were read with htmlparser2. CPU milliseconds, best of the rounds.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { Parser } from 'htmlparser2';
import { parseSitemap } from '../../crawler/sitemap/sitemap-file.js';
import { readXml } from '../../shared/xml.js';
import type { BenchResult } from './run.js';

const ROUNDS = 5;
const root = path.resolve(import.meta.dirname, '..', '..');

function sitemap(n: number): string {
  const entries = Array.from(
    { length: n },
    (_, i) =>
      `  <url>\n    <loc>http://a.test/page/${i}?x=1&amp;y=${i}</loc>\n    <lastmod>2024-05-06T10:00:00+02:00</lastmod>\n    <changefreq>weekly</changefreq>\n    <priority>0.${i % 10}</priority>\n  </url>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join('\n')}\n</urlset>\n`;
}

/** Collects the entries' fields from a reader's events: the same work whichever reader sends them. */
function collector() {
  const entries: Record<string, string>[] = [];
  let entry: Record<string, string> | null = null;
  let field: string | null = null;
  return {
    entries,
    open(name: string) {
      if (name === 'url') entry = {};
      else if (entry && ['loc', 'lastmod', 'changefreq', 'priority'].includes(name)) (field = name), (entry[name] = '');
    },
    text(t: string) {
      if (entry && field) entry[field] += t;
    },
    close(name: string) {
      if (name === field) field = null;
      else if (entry && name === 'url') (entries.push(entry), (entry = null));
    },
  };
}

/** The entries through shared/xml.ts's forgiving reading, as parseSitemap reads them. */
function xmlEntries(xml: string): number {
  const c = collector();
  readXml(xml, c, { forgiving: true });
  return c.entries.length;
}

/** The entries through htmlparser2 in XML mode, as sitemaps were read before. */
function htmlparser2Entries(xml: string): number {
  const c = collector();
  new Parser({ onopentag: c.open, ontext: c.text, onclosetag: c.close }, { xmlMode: true, decodeEntities: true }).end(xml);
  return c.entries.length;
}

function cpuMs(f: () => unknown): number {
  const t = process.cpuUsage();
  f();
  const u = process.cpuUsage(t);
  return (u.user + u.system) / 1000;
}

/** CPU milliseconds a fresh Node process spends importing htmlparser2, best of ROUNDS processes. */
function importCostMs(): number {
  const code = "const t = process.cpuUsage(); await import('htmlparser2'); const u = process.cpuUsage(t); console.log((u.user + u.system) / 1000);";
  let best = Infinity;
  for (let r = 0; r < ROUNDS; r++) best = Math.min(best, Number(execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: root, encoding: 'utf8' })));
  return best;
}

export default async function (): Promise<BenchResult> {
  const rows: string[] = [];
  for (const n of [1000, 50_000]) {
    const xml = sitemap(n);
    if (parseSitemap(xml, n).urls.length !== n || xmlEntries(xml) !== n || htmlparser2Entries(xml) !== n) throw new Error(`a reader missed entries of the ${n}-entry sitemap`);
    const best = { sitemap: Infinity, ours: Infinity, theirs: Infinity };
    for (let r = 0; r < ROUNDS; r++) {
      best.sitemap = Math.min(best.sitemap, cpuMs(() => parseSitemap(xml, n)));
      best.ours = Math.min(best.ours, cpuMs(() => xmlEntries(xml)));
      best.theirs = Math.min(best.theirs, cpuMs(() => htmlparser2Entries(xml)));
    }
    rows.push(
      `| ${n.toLocaleString('en')} entries, ${(xml.length / 2 ** 20).toFixed(1)} MiB | ${best.sitemap.toFixed(1)} | ${best.ours.toFixed(1)} | ${best.theirs.toFixed(1)} | ${(best.ours / best.theirs).toFixed(2)}× |`,
    );
  }
  const load = (await import('node:os')).loadavg()[0]!.toFixed(1);
  return {
    title: 'Sitemap reading',
    markdown: `CPU milliseconds, best of ${ROUNDS} rounds, alternating. The two readers send their events to the same collector of the entries' fields; parseSitemap adds the checks of each entry (an absolute http(s) loc, the lastmod's form). Load average when the run began: ${load}.

| sitemap | parseSitemap, whole | shared/xml.ts, forgiving | htmlparser2, XML mode | shared/xml.ts ÷ htmlparser2 |
|---|---|---|---|---|
${rows.join('\n')}

Importing htmlparser2 in a fresh process: ${importCostMs().toFixed(1)} ms CPU (best of ${ROUNDS}), which every command would pay at start if its configuration were read with it.

Command: \`npm run bench -- sitemap\`.`,
  };
}

/**
 * The parse's output on a corpus (parse-corpus.ts), compared between two
 * checkouts byte for byte: every record (status, title, text, language,
 * signature, outlinks with anchors, meta) under the one-shot crawl's
 * configuration and under a second one that exercises the other rules
 * (text-profile signature, external links ignored, an outlink cap). A change
 * that should only make the parse faster must leave every record as it was.
 *
 *   tsx test/bench/parse-output.ts --against=/path/to/other/checkout
 *   tsx test/bench/parse-output.ts --out=records.jsonl      (this checkout's records)
 *
 * Exits non-zero when a record differs, naming the page and the field.
 */
import fs from 'node:fs';
import path from 'node:path';
import minimist from 'minimist';
import { checkoutParse, devwebPages, edgeCasePages, generatedWebPages, hostsOf, type CorpusPage } from './parse-corpus.js';

type Parse = (page: CorpusPage) => Promise<Record<string, unknown>>;

const HERE = path.resolve(import.meta.dirname, '..', '..');

/** The parse of the checkout at `root`, under the crawl's configuration or the second one. */
async function parserOf(root: string, second: boolean, hosts: string): Promise<Parse> {
  const parse = await checkoutParse(
    root,
    second
      ? { overrides: { 'db.signature.class': 'TextProfileSignature', 'db.ignore.external.links': 'true', 'db.max.outlinks.per.page': '5' } }
      : { resources: ['crawl-tool.xml'], overrides: { 'urlfilter.host.allow': hosts } },
  );
  return (p) =>
    parse(
      { url: p.url, contentType: p.contentType, charset: null, bytes: p.bytes, truncated: false },
      { url: p.url, status: 'fetch_success', protocolStatus: 'success', httpStatus: 200, fetchTime: 0, headers: { ...p.headers, ...(p.contentType ? { 'content-type': p.contentType } : {}) } },
    );
}

/** The first field whose JSON differs, with both values cut short. */
function firstDifference(a: Record<string, unknown>, b: Record<string, unknown>): string {
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const x = JSON.stringify(a[k]);
    const y = JSON.stringify(b[k]);
    if (x !== y) {
      let i = 0;
      while (i < Math.min(x?.length ?? 0, y?.length ?? 0) && x![i] === y![i]) i++;
      return `${k} at character ${i}: ${x?.slice(Math.max(0, i - 40), i + 60)} | ${y?.slice(Math.max(0, i - 40), i + 60)}`;
    }
  }
  return 'key order';
}

async function main(): Promise<number> {
  const argv = minimist(process.argv.slice(2), { string: ['against', 'out'] });
  const pages = [...edgeCasePages(), ...generatedWebPages(), ...devwebPages()];
  const hosts = hostsOf(pages);
  const out = argv.out ? fs.createWriteStream(argv.out) : null;
  let compared = 0;
  let differing = 0;
  for (const second of [false, true]) {
    const mine = await parserOf(HERE, second, hosts);
    const theirs = argv.against ? await parserOf(path.resolve(argv.against), second, hosts) : null;
    for (const p of pages) {
      const a = await mine(p);
      const line = JSON.stringify(a);
      out?.write(line + '\n');
      if (!theirs) continue;
      const b = await theirs(p);
      compared++;
      if (JSON.stringify(b) === line) continue;
      if (++differing <= 20) console.log(`differs (${second ? 'second' : 'crawl'} configuration): ${p.url}: ${firstDifference(b, a)}`);
    }
  }
  out?.end();
  const devweb = pages.filter((p) => p.url.includes(':8950/')).length;
  console.log(`${pages.length} pages (${devweb} of devweb) × 2 configurations${theirs(argv.against)}: ${compared ? `${compared - differing} records identical, ${differing} differ` : 'written'}`);
  return differing ? 1 : 0;
}

const theirs = (against: string | undefined) => (against ? `, against ${against}` : '');

process.exitCode = await main();

/**
 * The `/api/search` answers of a crawl, written to a file to compare two
 * versions of the searcher byte for byte: devweb's 60 queries and 9 more (a
 * phrase, OR, exclusion, `site:`, `title:`, `url:`, `type:`, a misspelling, a
 * filter alone), each at four pagings, from `hazelnut-searcher` of the
 * checkout this file is in, over HTTP. The timing field is left out (it is
 * the only part that differs between runs), and so are the headers that
 * frame the body (Date, Content-Length, Transfer-Encoding, Connection, Keep-Alive).
 * Run: npx tsx test/bench/search-json.ts <crawl dir> <out file>
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { startSearcher } from '../fixtures/searcher-process.js';
import { devwebDir, devwebQueries } from './ranking/devweb.js';

const MORE = [
  '"write-ahead log"',
  'rebase OR merge',
  'branch -remote',
  'site:127.0.4.3 stream',
  'title:pragma',
  'url:api buffer',
  'type:text/html vacuum',
  'sqlte transacton',
  'site:127.0.4.4',
];
const PAGINGS = ['', '&start=10', '&hitsPerSite=0&hitsPerPage=20', '&start=3&hitsPerPage=5&hitsPerSite=1'];
const FRAMING = new Set(['date', 'content-length', 'transfer-encoding', 'connection', 'keep-alive']);

const [crawlDir, out] = process.argv.slice(2);
const dir = devwebDir();
if (!crawlDir || !out || !dir) {
  process.stderr.write('usage: search-json.ts <crawl dir> <out file> (with the devweb folder in reach, or DEVWEB_DIR)\n');
  process.exit(2);
}
const root = path.resolve(import.meta.dirname, '..', '..');
let proc: ChildProcess | undefined;
try {
  const s = await startSearcher(['-dir', path.resolve(crawlDir), '-port', '0', '-host', '127.0.11.9', '-workers', '1'], root);
  proc = s.proc;
  const lines: string[] = [];
  for (const q of [...devwebQueries(dir).map((d) => d.q), ...MORE])
    for (const paging of PAGINGS) {
      const res = await fetch(`${s.base}/api/search?query=${encodeURIComponent(q)}${paging}`);
      const body = (await res.text()).replace(/,"timing":\{[^}]*\}/, '');
      const headers = [...res.headers].filter(([k]) => !FRAMING.has(k)).map(([k, v]) => `${k}: ${v}`);
      lines.push(`${res.status} ${headers.join('; ')}`, body);
    }
  fs.writeFileSync(out, lines.join('\n') + '\n');
  process.stdout.write(`${lines.length / 2} answers written to ${out}\n`);
} finally {
  proc?.kill('SIGTERM');
}

/**
 * The index build's fixed steps a page, each alone on one thread, over the
 * pages of a crawl's first segment: reading a page's parse text as
 * `hazelnut index` reads it (its segment row, the body inflated as the
 * text's dictionary, then the text), and analysing that text with the
 * crawl's own analyzer (`Analyzer.numberedTokens`, the analysis threads'
 * main work), its word cache warmed first as a long build has it. What
 * `hazelnut index` and `merge` cost a page beyond these is the writing of
 * the indexes. Prints one JSON line. The crawl is only read.
 * Run: npx tsx test/bench/build-floor.ts <crawl dir> [pages]
 */
import fs from 'node:fs';
import path from 'node:path';
import { Analyzer } from '../../shared/analysis/analyzer.js';
import { NumberedTokens } from '../../shared/analysis/term-numbers.js';
import { readIndexMeta } from '../../shared/index/publish.js';
import { Segment } from '../../segments/segment.js';

const [crawlDir, pagesArg] = process.argv.slice(2);
if (!crawlDir) {
  process.stderr.write('usage: build-floor.ts <crawl dir> [pages]\n');
  process.exit(2);
}
const dir = path.resolve(crawlDir);
const want = Math.max(1, Number(pagesArg ?? 5000));
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const { meta } = readIndexMeta(path.join(dir, 'index'));
const segments = path.join(dir, 'segments');
const seg = Segment.open(path.join(segments, fs.readdirSync(segments).sort()[0]!), { readonly: true });
const urls: string[] = [];
for (const f of seg.fetches()) {
  if (f.status === 'fetch_success') urls.push(f.url);
  if (urls.length >= want) break;
}

let c0 = cpuMs();
const texts = urls.map((u) => seg.getParseTextAndSize(u)?.parse.text ?? '');
const readMs = cpuMs() - c0;
seg.close();

const analyzer = new Analyzer(meta.analyzer);
const tokens = new NumberedTokens();
for (const t of texts.slice(0, 500)) analyzer.numberedTokens(t, undefined, tokens);
let words = 0;
c0 = cpuMs();
for (const t of texts) {
  analyzer.numberedTokens(t, undefined, tokens);
  words += tokens.count;
}
const analyzeMs = cpuMs() - c0;

const n = texts.length;
process.stdout.write(
  JSON.stringify({
    pages: n,
    charsAPage: Math.round(texts.reduce((s, t) => s + t.length, 0) / n),
    wordsAPage: Math.round(words / n),
    readParseTextMsAPage: Number((readMs / n).toFixed(3)),
    analyzeMsAPage: Number((analyzeMs / n).toFixed(3)),
    analyzeNsAWord: Math.round((analyzeMs * 1e6) / words),
    analyzer: meta.analyzer,
  }) + '\n',
);

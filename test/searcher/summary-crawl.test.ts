/**
 * Summaries on a real crawl of the demo web (`hazelnut crawl` over loopback,
 * the same tools `npm start` runs): every hit's summary made from the
 * segment's compressed parse text and the summaries file's checkpoints
 * equals the summary made from the whole parse text, and the summaries
 * files hold no copy of the text and no offset a word: on these short pages
 * (about 120 words each) they take about a quarter of the parse text's
 * bytes (URLs, sections and furniture), where packed offsets of every word took two
 * thirds and the text and fixed offsets before them twice.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEMO_DEPTH } from '../../crawler/demo/intranet.js';
import { serveDemoWeb, type DemoWeb } from '../../crawler/demo/serve.js';
import { hitDetails, type SummaryWords } from '../../searcher/details.js';
import { search } from '../../searcher/search.js';
import { searchSettings } from '../../searcher/settings.js';
import { CrawlSnapshots } from '../../searcher/snapshot.js';
import { summaryToText } from '../../searcher/summary.js';
import { listSegments, Segment } from '../../segments/segment.js';
import { SUMMARIES_FILE } from '../../segments/summaries.js';
import { Conf } from '../../shared/conf.js';
import { segmentDir, segmentIndexDir } from '../../shared/crawl-dir.js';
import { runBin } from '../fixtures/run-bin.js';

const HAZELNUT = path.resolve(import.meta.dirname, '..', '..', 'crawler', 'hazelnut.js');
/** Words of the demo's pages, common and rare, one to three a query. */
const QUERIES = ['the', 'leave', 'expense report', 'deploy', 'release notes', 'database backup', 'parental leave policy', 'how to', 'vpn access', 'kestrel'];

let web: DemoWeb;
let tmp: string;

test.before(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-summary-crawl-'));
  web = await serveDemoWeb({ firstAddress: '127.0.11.1', port: 0 });
});

test.after(async () => {
  await web.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

test('on a crawl of the demo web, summaries from the compressed text and its checkpoints equal those from the whole text', async () => {
  const seeds = path.join(tmp, 'seeds.txt');
  fs.writeFileSync(seeds, web.hosts.map((h) => h.origin + '/').join('\n') + '\n');
  const dir = path.join(tmp, 'crawl');
  const run = await runBin(HAZELNUT, ['-D', 'http.agent.name=hzTest', '-D', 'fetcher.server.delay=0.01', 'crawl', seeds, '-dir', dir, '-depth', String(DEMO_DEPTH), '-threads', '8'], 240_000);
  assert.is(run.code, 0, run.err);

  let textBytes = 0;
  let summaryBytes = 0;
  let pages = 0;
  const segments = path.join(dir, 'segments');
  for (const name of listSegments(segments)) {
    const seg = Segment.open(segmentDir(segments, name), { readonly: true });
    for (const p of seg.parses()) (textBytes += Buffer.byteLength(p.text)), pages++;
    seg.close();
    const file = path.join(segmentIndexDir(segmentDir(segments, name)), SUMMARIES_FILE);
    if (fs.existsSync(file)) summaryBytes += fs.statSync(file).size;
  }
  assert.ok(pages > 200, `${pages} pages parsed`);
  assert.ok(summaryBytes > 0 && summaryBytes < 0.35 * textBytes, `summaries files ${summaryBytes} bytes for ${textBytes} bytes of parse text`);

  const snaps = await CrawlSnapshots.open(dir, searchSettings(Conf.load()));
  try {
    const snap = snaps.current;
    let compared = 0;
    for (const query of QUERIES) {
      const r = search(snap, { query });
      for (const h of r.hits) {
        const by = (words: SummaryWords) => hitDetails(snap, h, r, { words });
        const stored = by('stored');
        assert.equal(stored, by('whole'), `${query}: ${h.doc.url}`);
        assert.equal(stored, by('scanned'), `${query}: ${h.doc.url}`);
        assert.ok(snap.segments.withSummarySource(h.doc.segment, h.doc.url, (s) => s.checkpoints !== undefined), `${h.doc.url}: summarized from the checkpoints`);
        if (summaryToText(stored.summary)) compared++;
      }
    }
    assert.ok(compared > 30, `${compared} summaries compared`);
  } finally {
    snaps.close();
  }
});

test.run();

/**
 * parse-pdf and parse-office on real files generated here: a multi-page
 * PDF, a .docx with headings and a link, a .xlsx, a .pptx and an .odt; and
 * the document worker's time limit, after which the next file still parses.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DocumentWorker } from '../../../crawler/parse/documents/pool.js';
import { parseContent } from '../../../crawler/parse/parse-content.js';
import '../../../crawler/builtins.js';
import { loadCrawlerPlugins, type CrawlerPlugins } from '../../../crawler/plugin/chains.js';
import { Conf } from '../../../shared/conf.js';
import type { ContentRecord, FetchRecord } from '../../../segments/segment.js';
import { makeDocx, makeOdt, makePdf, makePptx, makeXlsx } from '../../fixtures/documents.js';

const conf = Conf.load();
let plugins: CrawlerPlugins;
test.before(async () => {
  plugins = await loadCrawlerPlugins(conf);
});

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const PPTX = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';
const ODT = 'application/vnd.oasis.opendocument.text';

function parse(bytes: Buffer, contentType: string | null, url = 'http://127.0.9.1/doc', truncated = false) {
  const content: ContentRecord = { url, contentType, charset: null, bytes, truncated };
  const fetch: FetchRecord = { url, status: 'fetch_success', protocolStatus: 'success', httpStatus: 200, fetchTime: 0, headers: {}, contentType };
  return parseContent(plugins, conf, content, fetch);
}

test('a multi-page PDF: text of every page, title, author and dates', async () => {
  const pdf = makePdf(
    [
      ['Travel policy', 'Book trains for trips under four hours.'],
      ['Expenses', 'Receipts (originals) are kept for seven years.'],
      ['Approval', 'Managers approve trips abroad.'],
    ],
    { title: 'Travel Policy 2025', author: 'Ann Smith', created: '2025-01-02T03:04:05Z', modified: '2025-03-04T05:06:07Z' },
  );
  // Sniffed from the bytes: the server called it octet-stream.
  const p = await parse(pdf, 'application/octet-stream');
  assert.is(p.status, 'success', p.message ?? undefined);
  assert.is(p.title, 'Travel Policy 2025');
  assert.match(p.text, /Book trains for trips under four hours\./);
  assert.match(p.text, /Receipts \(originals\) are kept for seven years\./);
  assert.match(p.text, /Managers approve trips abroad\./);
  assert.is(p.meta.author, 'Ann Smith');
  assert.is(p.meta.created, '2025-01-02T03:04:05.000Z');
  assert.is(p.meta.modified, '2025-03-04T05:06:07.000Z');
  assert.is(p.meta.pages, 3);
  assert.is(p.meta.contentType, 'application/pdf');
});

test('a PDF without a title takes its first line; page limit cuts and says so', async () => {
  const pages = Array.from({ length: 5 }, (_, i) => [`Chapter ${i + 1}`, `Words of chapter ${i + 1}.`]);
  const limited = conf.with({ 'parser.document.max.pages': '2' });
  const content: ContentRecord = { url: 'http://127.0.9.1/c.pdf', contentType: 'application/pdf', charset: null, bytes: makePdf(pages), truncated: false };
  const fetch: FetchRecord = { url: content.url, status: 'fetch_success', protocolStatus: 'success', httpStatus: 200, fetchTime: 0, headers: {}, contentType: 'application/pdf' };
  const p = await parseContent(await loadCrawlerPlugins(limited), limited, content, fetch);
  assert.is(p.title, 'Chapter 1');
  assert.match(p.text, /Words of chapter 2\./);
  assert.not.match(p.text, /chapter 3/);
  assert.is(p.meta.truncatedPages, true);
  assert.is(p.meta.pages, 5);
});

test('a .docx: headings and paragraphs, hyperlinks become outlinks, core properties', async () => {
  const docx = makeDocx(
    [
      { heading: 'Remote work' },
      { para: 'Staff may work from home two days a week.' },
      { heading: 'Equipment', level: 2 },
      { para: 'Laptops are issued by IT.' },
      { para: 'See the IT portal', link: 'http://127.0.9.2/portal' },
    ],
    { title: 'Remote Work Guide', author: 'Bo Chen', modified: '2024-06-07T08:09:10Z' },
  );
  const p = await parse(docx, DOCX);
  assert.is(p.status, 'success', p.message ?? undefined);
  assert.is(p.title, 'Remote Work Guide');
  assert.is(p.text, 'Remote work Staff may work from home two days a week. Equipment Laptops are issued by IT. See the IT portal');
  assert.equal(p.outlinks, [{ url: 'http://127.0.9.2/portal', anchor: 'See the IT portal' }]);
  assert.is(p.meta.author, 'Bo Chen');
  assert.is(p.meta.modified, '2024-06-07T08:09:10.000Z');
  const untitled = await parse(makeDocx([{ heading: 'Onboarding checklist' }, { para: 'Day one.' }]), DOCX);
  assert.is(untitled.title, 'Onboarding checklist');
});

test('.xlsx, .pptx and .odt', async () => {
  const x = await parse(makeXlsx([{ name: 'Budget', rows: [['Item', 'Cost'], ['Printer toner', '120']] }], { author: 'Finance' }), XLSX);
  assert.is(x.status, 'success', x.message ?? undefined);
  assert.is(x.text, 'Budget Item Cost Printer toner 120');
  assert.is(x.meta.author, 'Finance');
  const s = await parse(makePptx([{ title: 'Quarterly review', body: ['Revenue grew', 'Hiring paused'] }, { title: 'Next steps', body: ['Open the Oslo office'] }]), PPTX);
  assert.is(s.status, 'success', s.message ?? undefined);
  assert.is(s.title, 'Quarterly review');
  assert.is(s.text, 'Quarterly review Revenue grew Hiring paused Next steps Open the Oslo office');
  assert.is(s.meta.pages, 2);
  const o = await parse(makeOdt([{ heading: 'Fire drill' }, { para: 'Meet at the car park.' }], { title: 'Safety', author: 'Dee Ray', created: '2023-05-06T07:08:09' }), ODT);
  assert.is(o.status, 'success', o.message ?? undefined);
  assert.is(o.title, 'Safety');
  assert.is(o.text, 'Fire drill Meet at the car park.');
  assert.is(o.meta.author, 'Dee Ray');
});

test('broken, truncated and bomb-like documents are failed parses with a reason', async () => {
  const broken = await parse(Buffer.from('%PDF-1.4\nthis is not a pdf at all'), 'application/pdf');
  assert.is(broken.status, 'failed');
  assert.match(broken.message!, /cannot read application\/pdf/);
  const cut = await parse(makePdf([['x']]), 'application/pdf', 'http://127.0.9.1/cut.pdf', true);
  assert.is(cut.status, 'failed');
  assert.match(cut.message!, /http.content.limit/);
  const notZip = await parse(Buffer.from('plain words'), DOCX);
  assert.is(notZip.status, 'failed');
  const big = makeXlsx([{ name: 'S', rows: [['x'.repeat(2 << 20)]] }]);
  const small = conf.with({ 'parser.document.max.unpacked.mb': '1' });
  const content: ContentRecord = { url: 'http://127.0.9.1/b.xlsx', contentType: XLSX, charset: null, bytes: big, truncated: false };
  const fetch: FetchRecord = { url: content.url, status: 'fetch_success', protocolStatus: 'success', httpStatus: 200, fetchTime: 0, headers: {}, contentType: XLSX };
  const bomb = await parseContent(await loadCrawlerPlugins(small), small, content, fetch);
  assert.is(bomb.status, 'failed');
  assert.match(bomb.message!, /unpacks to more than/);
});

test('a document over the time limit is given up and the worker replaced; the next one parses', async () => {
  const w = new DocumentWorker({ timeoutMs: 500, memoryMb: 256, maxPages: 100_000, maxUnpackedBytes: 1 << 24 });
  try {
    // Warm up: the time limit starts once the worker has loaded its libraries.
    assert.match((await w.extract('pdf', makePdf([['warm']]))).text!, /warm/);
    const heavy = makePdf(Array.from({ length: 1500 }, (_, i) => Array.from({ length: 40 }, (_, j) => `line ${j} of page ${i} with some words`)));
    const t0 = Date.now();
    const err = await w.extract('pdf', heavy).then(() => undefined, (e: Error) => e);
    assert.ok(err, 'the heavy document (seconds of work) should not finish within 0.5 s');
    assert.match(err!.message, /took longer than 0.5 s \(parser.timeout\)/);
    assert.ok(Date.now() - t0 < 10_000, 'given up promptly');
    assert.match((await w.extract('pdf', makePdf([['after the kill']]))).text!, /after the kill/);
  } finally {
    await w.close();
  }
});

test.run();

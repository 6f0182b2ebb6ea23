/**
 * The parse tool over a segment larger than its batches: every fetched page
 * with content gets the parse record parseContent makes of it, pages the
 * fetcher parsed inline are kept, and the counts add up; the fetch records
 * are read a batch at a time as the parse reaches them, not all at the start.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseContent } from '../../../crawler/parse/parse-content.js';
import { parseSegment } from '../../../crawler/parse/tool.js';
import '../../../crawler/builtins.js';
import { loadCrawlerPlugins, type CrawlerPlugins } from '../../../crawler/plugin/chains.js';
import { Conf } from '../../../shared/conf.js';
import type { Parser } from '../../../shared/plugin/extension-points.js';
import { Segment, type ContentRecord, type FetchRecord, type ParseRecord } from '../../../segments/segment.js';
import { SegmentWriter } from '../../../segments/segment-writer.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-parse-tool-'));
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** More than two of the tool's batches of 200, with every kind of record among them. */
const PAGES = 457;
const url = (i: number) => `http://p${i % 7}.test/page/${i}`;
const kind = (i: number) => (i % 50 === 7 ? 'gone' : i % 50 === 11 ? 'nocontent' : i % 50 === 13 ? 'inline' : i % 50 === 17 ? 'binary' : 'page');

function fetchRecord(i: number): FetchRecord {
  const gone = kind(i) === 'gone';
  return {
    url: url(i),
    status: gone ? 'fetch_gone' : 'fetch_success',
    protocolStatus: gone ? 'notfound' : 'success',
    httpStatus: gone ? 404 : 200,
    fetchTime: 1000 + i,
    headers: {},
    contentType: kind(i) === 'binary' ? 'application/x-unknown' : 'text/html',
  };
}

function contentRecord(i: number): ContentRecord {
  const binary = kind(i) === 'binary';
  const body = binary ? Buffer.from([0, 1, 2, 3, 255]) : Buffer.from(`<html><title>Page ${i}</title><body><p>Words of page ${i}.</p><a href="/page/${i + 1}">next</a></body></html>`);
  return { url: url(i), contentType: binary ? 'application/x-unknown' : 'text/html', charset: 'utf-8', bytes: body, truncated: false };
}

const INLINE = (i: number): ParseRecord => ({ url: url(i), status: 'success', title: `inline ${i}`, text: 'parsed by the fetcher', outlinks: [], meta: {} });

const conf = Conf.load({ overrides: { 'plugin.includes': 'parse-html|urlnormalizer-basic' } });
let plugins: CrawlerPlugins;
test.before(async () => {
  plugins = await loadCrawlerPlugins(conf);
});

/** A fetched segment holding `records` (fetch, content, inline parse); returns its directory. */
async function fetchedSegment(records: [FetchRecord, ContentRecord?, ParseRecord?][]): Promise<string> {
  const seg = Segment.create(tmp);
  const w = new SegmentWriter(seg);
  for (const [f, c, p] of records) w.put(f, c, p);
  await w.close();
  seg.markPhase('fetched');
  seg.close();
  return seg.dir;
}

/** What a parse record keeps through the segment. */
const stored = (p: ParseRecord) => ({ status: p.status, title: p.title, text: p.text, lang: p.lang, signature: p.signature, outlinks: p.outlinks, meta: p.meta });

test('a segment of several batches parses every page as parseContent does, keeping inline parses', async () => {
  const dir = await fetchedSegment(
    Array.from({ length: PAGES }, (_, i) => {
      const k = kind(i);
      return [fetchRecord(i), k === 'gone' || k === 'nocontent' ? undefined : contentRecord(i), k === 'inline' ? INLINE(i) : undefined];
    }),
  );

  const s = await parseSegment(conf, { segment: dir, plugins });
  const count = (k: string) => Array.from({ length: PAGES }, (_, i) => kind(i)).filter((x) => x === k).length;
  assert.equal(s, { success: count('page'), failed: 0, notparsed: count('binary'), kept: count('inline'), noContent: count('nocontent') });

  const done = Segment.open(dir, { readonly: true });
  try {
    assert.ok(done.hasPhase('parsed'));
    assert.is(done.count('parse'), PAGES - count('gone') - count('nocontent'));
    for (let i = 0; i < PAGES; i++) {
      const got = done.getParse(url(i));
      const k = kind(i);
      if (k === 'gone' || k === 'nocontent') assert.is(got, undefined, url(i));
      else if (k === 'inline') assert.equal([got?.title, got?.text], [`inline ${i}`, 'parsed by the fetcher'], url(i));
      else {
        const want = await parseContent(plugins, conf, contentRecord(i), fetchRecord(i));
        assert.equal(stored(got!), stored(want), url(i));
        if (k === 'page') assert.is(got!.title, `Page ${i}`);
      }
    }
  } finally {
    done.close();
  }
});

test('fetch records are read as the parse reaches them: one stored after the parse began is parsed too', async () => {
  const n = 250;
  const page = (i: number): [FetchRecord, ContentRecord] => [
    { ...fetchRecord(i), status: 'fetch_success', contentType: 'text/html' },
    { ...contentRecord(i), contentType: 'text/html', bytes: Buffer.from(`<title>Page ${i}</title>`) },
  ];
  const dir = await fetchedSegment(Array.from({ length: n }, (_, i) => page(i)));

  const late = 'http://late.test/';
  const html = plugins.parsers.find((p) => p.contentTypes.includes('text/html'))!;
  let stored = false;
  const storeLate: Parser = {
    contentTypes: html.contentTypes,
    async parse(input) {
      if (!stored) {
        stored = true;
        const other = Segment.open(dir);
        const lw = new SegmentWriter(other);
        lw.put({ ...fetchRecord(0), url: late }, { ...contentRecord(0), url: late, bytes: Buffer.from('<title>Late</title>') });
        await lw.close();
        other.close();
      }
      return html.parse(input);
    },
  };
  const s = await parseSegment(conf, { segment: dir, plugins: { ...plugins, parsers: [storeLate] } });
  assert.is(s.success, n + 1);
  const done = Segment.open(dir, { readonly: true });
  try {
    assert.is(done.getParse(late)?.title, 'Late');
  } finally {
    done.close();
  }
});

test.run();

/**
 * Segment format 8: a parse is stored under its fetch row's rowid, with no
 * URL and no index of its own, where the file holds the fetch row, and by
 * URL where it does not (the parse tool's, for a page fetched into another
 * file); every reader of parses answers from both as from format 7's table.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Segment } from '../../segments/segment.js';
import { SegmentWriter } from '../../segments/segment-writer.js';
import { fetchedRecord } from '../fixtures/fetch-record.js';

const HERE = 'http://127.0.0.9/here';
const ELSEWHERE = 'http://127.0.0.9/elsewhere';
const UNPARSED = 'http://127.0.0.9/unparsed';
const BODY = Buffer.from(`<p>${'the body the parse text is deflated against '.repeat(20)}</p>`);
const parseOf = (url: string, title: string) => ({
  url,
  status: 'success' as const,
  title,
  text: `the body the parse text is deflated against, of ${title} ${'and more of it '.repeat(30)}`,
  outlinks: [{ url: `${url}/next`, anchor: `after ${title}` }],
  meta: { outlinksDropped: { cap: title.length } },
});

test('format 8: parses keyed by the fetch row or stored by URL, neither with an index of its own; every reader answers from both', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-parsekeyed-'));
  try {
    const seg = Segment.create(dir);
    const w = new SegmentWriter(seg);
    w.put(fetchedRecord(HERE), { url: HERE, contentType: 'text/html', charset: 'utf-8', bytes: BODY, truncated: false }, parseOf(HERE, 'Here'));
    w.put(fetchedRecord(UNPARSED), { url: UNPARSED, contentType: 'text/html', charset: 'utf-8', bytes: BODY, truncated: false });
    await w.close();
    // As the parse tool stores a page fetched into a partition's file: in this one, which has no fetch row for it.
    seg.putParses([parseOf(ELSEWHERE, 'Elsewhere')]);

    const raw = new Database(seg.file, { readonly: true });
    try {
      const columns = (t: string) => (raw.prepare(`SELECT name FROM pragma_table_info('${t}')`).pluck().all() as string[]).join(' ');
      assert.is(columns('parse_rows'), 'id status message title text lang signature outlinks meta', 'no URL beside the fetch row');
      assert.equal(raw.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'parse_rows'").pluck().all(), [], 'no index on it');
      assert.equal(raw.prepare('SELECT COUNT(*) FROM parse_rows').pluck().get(), 1);
      assert.equal(raw.prepare('SELECT url FROM parse_urls').pluck().all(), [ELSEWHERE]);
      assert.is(raw.prepare('SELECT id FROM parse_rows').pluck().get(), raw.prepare('SELECT rowid FROM fetch WHERE url = ?').pluck().get(HERE));
    } finally {
      raw.close();
    }

    for (const [url, title] of [[HERE, 'Here'], [ELSEWHERE, 'Elsewhere']] as const) {
      const want = parseOf(url, title);
      assert.ok(seg.hasParse(url), url);
      assert.equal({ ...seg.getParse(url) }, { ...want, message: null, lang: null, signature: null }, url);
      assert.is(seg.getParseText(url)!.text, want.text, url);
      assert.equal(seg.getParseLinks(url)!.outlinks, want.outlinks, url);
      assert.is(seg.withSummarySource(url, (s) => s.text.whole()), want.text, url);
    }
    assert.equal(seg.getParseTextAndSize(HERE)!.contentSize, BODY.length, 'the content of its file, joined by the fetch row');
    assert.is(seg.getParseTextAndSize(ELSEWHERE)!.contentSize, null, 'no content in its file');
    assert.is(seg.getParse(UNPARSED), undefined);
    assert.is(seg.count('parse'), 2);
    assert.equal([...seg.parsedUrls()].sort(), [ELSEWHERE, HERE]);
    assert.equal([...seg.parseTitles()].map((p) => p.title).sort(), ['Elsewhere', 'Here']);
    assert.equal([...seg.parses()].map((p) => p.url).sort(), [ELSEWHERE, HERE]);
    assert.equal([...seg.unparsedContents()].map((c) => c.url), [UNPARSED]);
    assert.equal(seg.sumParseMeta(['outlinksDropped.cap']), ['Here'.length + 'Elsewhere'.length]);
    assert.equal(
      [...seg.fetchUpdates()].map((u) => [u.fetch.url, u.parse?.outlinks[0]?.anchor]),
      [
        [HERE, 'after Here'],
        [UNPARSED, undefined],
      ],
      "updatedb's joined read",
    );
    // Stored again: replaced, not added.
    seg.putParses([parseOf(ELSEWHERE, 'Elsewhere again'), parseOf(HERE, 'Here again')]);
    assert.is(seg.count('parse'), 2);
    assert.is(seg.getParse(HERE)!.title, 'Here again');
    assert.is(seg.getParse(ELSEWHERE)!.title, 'Elsewhere again');
    seg.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test.run();

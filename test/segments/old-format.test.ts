/**
 * Segments written by earlier releases: version 1 (bodies and parse text
 * deflated), version 2 (bodies in brotli, parse text as TEXT), version 3
 * (parse text in brotli on its own), version 4 (no dictionary table) and
 * version 5 (the parse meta as JSON text), version 6 (content keyed by
 * URL) and version 7 (parses keyed by URL) read as they always did; one this
 * hazelnut writes to is marked with the current version, so a release that
 * cannot read the compressed parse text refuses it by its version instead of
 * misreading it, and its content (format 7) and parses (format 8) are keyed
 * by their fetch record, or the file refused, naming it, where a content
 * row has none; and a segment of a later
 * format is refused with a message naming it, by `hazelnut readseg` too.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import Database from 'better-sqlite3';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Segment, SEGMENT_VERSION } from '../../segments/segment.js';
import { HzError } from '../../shared/errors.js';
import { runBin } from '../fixtures/run-bin.js';

const HAZELNUT = path.resolve(import.meta.dirname, '..', '..', 'crawler', 'hazelnut.js');

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-segold-'));
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

const URL = 'http://127.0.0.9/old';
const BODY = '<html><title>Old</title><p>caf\u00e9 written before</p></html>';
const TEXT = `caf\u00e9 written before ${'and kept readable '.repeat(50)}`;
const DATUM = { url: URL, status: 'db_unfetched', fetch_interval: 2592000, etag: null, metadata: null };
const META = { sections: [{ heading: 'caf\u00e9 written before', level: 2, offset: 0 }], outlinksDropped: { cap: 2 } };

/** The content table of formats 1 to 6, keyed by URL. */
const CONTENT_BY_URL = `
DROP VIEW content;
DROP TABLE content_rows;
CREATE TABLE content (url TEXT PRIMARY KEY, content_type TEXT, charset TEXT, size INTEGER NOT NULL, truncated INTEGER NOT NULL DEFAULT 0, data BLOB NOT NULL);
`;

/** The parse table of formats 1 to 7, keyed by URL. */
const PARSE_BY_URL = `
DROP VIEW parse;
DROP TABLE parse_rows;
DROP TABLE parse_urls;
CREATE TABLE parse (url TEXT PRIMARY KEY, status TEXT NOT NULL, message TEXT, title TEXT NOT NULL DEFAULT '', text BLOB, lang TEXT, signature TEXT, outlinks BLOB NOT NULL, meta TEXT NOT NULL);
`;

/** A segment as release `version` wrote it: its tables (unchanged since but for content and parse), its version, and one page stored its way. */
function oldSegment(version: 1 | 2 | 3 | 4 | 5 | 6 | 7, opts: { fetched?: boolean } = {}): Segment {
  const seg = Segment.create(path.join(tmp, `v${version}${opts.fetched === false ? '-unfetched' : ''}`));
  const file = seg.file;
  seg.close();
  const db = new Database(file);
  try {
    db.prepare("UPDATE meta SET value = ? WHERE key = 'version'").run(String(version));
    if (version < 7) db.exec(CONTENT_BY_URL);
    db.exec(PARSE_BY_URL);
    if (version < 5) db.exec('DROP TABLE dictionary');
    if (opts.fetched !== false)
      db.prepare("INSERT INTO fetch (url, status, protocol_status, http_status, fetch_time, headers) VALUES (?, 'fetch_success', 'success', 200, 1, '{}')").run(URL);
    const body = version === 1 ? zlib.deflateSync(BODY) : zlib.brotliCompressSync(BODY, { params: { [zlib.constants.BROTLI_PARAM_LGWIN]: 22 } });
    if (version === 7)
      db.prepare("INSERT INTO content_rows (id, content_type, charset, size, truncated, data) SELECT rowid, 'text/html', 'utf-8', ?, 0, ? FROM fetch WHERE url = ?").run(Buffer.byteLength(BODY), body, URL);
    else db.prepare('INSERT INTO content (url, content_type, charset, size, truncated, data) VALUES (?, ?, ?, ?, 0, ?)').run(URL, 'text/html', 'utf-8', Buffer.byteLength(BODY), body);
    const text = version === 1 ? zlib.deflateSync(TEXT) : version === 2 ? TEXT : zlib.brotliCompressSync(TEXT, { params: { [zlib.constants.BROTLI_PARAM_LGWIN]: 22 } });
    db.prepare("INSERT INTO parse (url, status, title, text, outlinks, meta) VALUES (?, 'success', 'Old', ?, '[]', ?)").run(URL, text, JSON.stringify(META));
    db.prepare("INSERT INTO fetchlist (url, pos, host, score, datum) VALUES (?, 0, '127.0.0.9', 1, ?)").run(URL, JSON.stringify(DATUM));
  } finally {
    db.close();
  }
  return Segment.open(path.dirname(file), { readonly: true });
}

const versionOf = (seg: Segment) => {
  const db = new Database(seg.file, { readonly: true });
  try {
    return db.prepare("SELECT value FROM meta WHERE key = 'version'").pluck().get();
  } finally {
    db.close();
  }
};

for (const version of [1, 2, 3, 4, 5, 6, 7] as const)
  test(`a version ${version} segment reads: body, parse text and meta, summary source; read-only it stays version ${version}`, () => {
    const seg = oldSegment(version);
    try {
      assert.is(seg.getContent(URL)!.bytes.toString('utf8'), BODY);
      assert.is(seg.getParse(URL)!.text, TEXT);
      assert.equal(seg.getParse(URL)!.meta, META);
      assert.equal(seg.sumParseMeta(['outlinksDropped.cap']), [2]);
      assert.equal([...seg.fetchlist()].map((e) => e.datum), [DATUM]);
      assert.equal(seg.fetchlistEntry(URL)!.datum, DATUM);
      assert.is(seg.withSummarySource(URL, (s) => s.text.whole()), TEXT);
      assert.is(versionOf(seg), String(version));
    } finally {
      seg.close();
    }
  });

/** The content (or parse) tables of a segment file, and its rows keyed by the fetch row (content_rows, format 7; parse_rows, format 8), when it has them. */
function contentTables(file: string, kind: 'content' | 'parse' = 'content'): { tables: string[]; keyed: number | undefined } {
  const db = new Database(file, { readonly: true });
  try {
    const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '${kind}%' ORDER BY name`).pluck().all() as string[];
    return { tables, keyed: tables.includes(`${kind}_rows`) ? (db.prepare(`SELECT COUNT(*) FROM ${kind}_rows`).pluck().get() as number) : undefined };
  } finally {
    db.close();
  }
}

test('a version 2 segment written to is marked with the current version, its content and parse keyed by the fetch record; old and new parse text both read', () => {
  const old = oldSegment(2);
  old.close();
  assert.equal(contentTables(old.file), { tables: ['content'], keyed: undefined });
  assert.equal(contentTables(old.file, 'parse'), { tables: ['parse'], keyed: undefined });
  const seg = Segment.open(old.dir);
  try {
    assert.is(SEGMENT_VERSION, 8);
    assert.is(versionOf(seg), '8', 'a release reading version 2 refuses the file rather than inflate brotli as deflate');
    assert.equal(contentTables(seg.file), { tables: ['content_rows'], keyed: 1 }, 'no table of content by URL left');
    assert.equal(contentTables(seg.file, 'parse'), { tables: ['parse_rows', 'parse_urls'], keyed: 1 }, 'no table of parses by URL left');
    seg.putParses([{ url: `${URL}/new`, status: 'success', title: 'New', text: TEXT, outlinks: [], meta: {} }]);
    assert.is(seg.getParse(URL)!.text, TEXT);
    assert.is(seg.getParse(`${URL}/new`)!.text, TEXT);
    assert.is(seg.getParseText(URL)!.text, TEXT);
    assert.is(seg.getContent(URL)!.bytes.toString('utf8'), BODY);
    assert.is(seg.withSummarySource(URL, (s) => s.text.whole()), TEXT);
  } finally {
    seg.close();
  }
});

/** Makes the segment file `file` of 1 KiB pages, as format 7 made its files. */
const pagesOf1K = (file: string) => {
  const db = new Database(file);
  db.pragma('journal_mode = DELETE');
  db.pragma('page_size = 1024');
  db.exec('VACUUM');
  db.pragma('journal_mode = WAL');
  db.close();
};

/** The page size of a segment file. */
const pageSize = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return db.pragma('page_size', { simple: true });
  } finally {
    db.close();
  }
};

test('a version 7 segment written to keys its parses by the fetch record, in 512-byte pages; a parse without one in the file keeps its URL; both read', () => {
  const old = oldSegment(7);
  old.close();
  const other = `${URL}/fetched-elsewhere`;
  const db = new Database(old.file);
  db.prepare("INSERT INTO parse (url, status, title, text, outlinks, meta) VALUES (?, 'success', 'Other', ?, '[]', '{}')").run(other, 'text of a page fetched into another file');
  db.close();
  pagesOf1K(old.file);
  const seg = Segment.open(old.dir);
  try {
    assert.is(versionOf(seg), '8');
    assert.is(pageSize(seg.file), 512);
    assert.equal(contentTables(seg.file, 'parse'), { tables: ['parse_rows', 'parse_urls'], keyed: 1 });
    assert.is(seg.getParse(URL)!.text, TEXT);
    assert.equal(seg.getParseTextAndSize(URL)!.contentSize, Buffer.byteLength(BODY));
    assert.is(seg.getParse(other)!.text, 'text of a page fetched into another file');
    assert.is(seg.withSummarySource(URL, (s) => s.text.whole()), TEXT);
    assert.equal([...seg.parseTitles()].map((p) => p.title).sort(), ['Old', 'Other']);
  } finally {
    seg.close();
  }
});

test('a version 7 segment another connection has open is upgraded in the page size it has', () => {
  const old = oldSegment(7);
  old.close();
  pagesOf1K(old.file);
  const reader = new Database(old.file, { readonly: true });
  try {
    reader.prepare('SELECT COUNT(*) FROM fetch').get();
    const seg = Segment.open(old.dir);
    try {
      assert.is(versionOf(seg), '8');
      assert.is(seg.getParse(URL)!.text, TEXT);
      assert.is(pageSize(seg.file), 1024);
    } finally {
      seg.close();
    }
  } finally {
    reader.close();
  }
});

test('a version 6 segment with content but no fetch record for it is refused when written to, naming the file and the URL, and left as it was', () => {
  const old = oldSegment(6, { fetched: false });
  old.close();
  assert.throws(
    () => Segment.open(old.dir),
    (e: unknown) => e instanceof HzError && e.message.includes(old.dir) && e.message.includes(`the content of ${URL} has no fetch record`),
  );
  assert.equal(contentTables(old.file), { tables: ['content'], keyed: undefined });
  assert.is(versionOf(old), '6');
  const seg = Segment.open(old.dir, { readonly: true });
  try {
    assert.is(seg.getContent(URL)!.bytes.toString('utf8'), BODY, 'still read as it is');
  } finally {
    seg.close();
  }
});

test('the parse meta and the fetchlist datum are stored compressed when long (format 6), and read and sum as the JSON they were', () => {
  const seg = Segment.create(path.join(tmp, 'v6'));
  const long = { ...META, sections: Array.from({ length: 20 }, (_, i) => ({ heading: `heading ${i} of the page`, level: 2, offset: i * 100 })) };
  const datum = { ...DATUM, metadata: { seed: 'a seed list of its own', tags: ['one', 'two', 'three'] } };
  try {
    seg.addFetchlist([{ url: URL, host: '127.0.0.9', score: 1, datum }]);
    seg.putParses([
      { url: URL, status: 'success', title: 'Long', text: TEXT, outlinks: [], meta: long },
      { url: `${URL}/short`, status: 'success', title: 'Short', text: TEXT, outlinks: [], meta: { outlinksDropped: { cap: 3 } } },
    ]);
    const db = new Database(seg.file, { readonly: true });
    try {
      const stored = db.prepare('SELECT url, typeof(meta) AS kind, length(meta) AS bytes FROM parse ORDER BY url').all() as { url: string; kind: string; bytes: number }[];
      assert.equal(stored.map((r) => r.kind), ['blob', 'text']);
      assert.ok(stored[0]!.bytes < JSON.stringify(long).length / 2, `${stored[0]!.bytes} bytes`);
      assert.is(db.prepare('SELECT typeof(datum) FROM fetchlist').pluck().get(), 'blob');
    } finally {
      db.close();
    }
    assert.equal(seg.getParse(URL)!.meta, long);
    assert.equal(seg.getParseText(URL)!.meta, long);
    assert.equal([...seg.fetchlist()].map((e) => e.datum), [datum]);
    assert.equal(seg.fetchlistEntry(URL)!.datum, datum);
    assert.equal(seg.sumParseMeta(['outlinksDropped.cap', 'missing.path']), [5, 0]);
  } finally {
    seg.close();
  }
});

test('a segment of a later format is refused, naming the segment and both versions', () => {
  const seg = Segment.create(path.join(tmp, 'later'));
  const dir = seg.dir;
  const file = seg.file;
  seg.close();
  const db = new Database(file);
  db.prepare("UPDATE meta SET value = ? WHERE key = 'version'").run(String(SEGMENT_VERSION + 1));
  db.close();
  for (const readonly of [true, false])
    assert.throws(
      () => Segment.open(dir, { readonly }),
      (e: unknown) => e instanceof HzError && e.message.includes(dir) && e.message.includes(`version ${SEGMENT_VERSION + 1}, this hazelnut reads ${SEGMENT_VERSION}`),
    );
});

test('hazelnut readseg: a version 2 segment read as it is; a later format refused with a non-zero exit, naming the segment', async () => {
  const old = oldSegment(2);
  old.close();
  const got = await runBin(HAZELNUT, ['readseg', '-get', old.dir, URL, '-nocontent']);
  assert.is(got.code, 0, got.err);
  assert.ok(got.out.includes('written before'), got.out);
  assert.is(versionOf(old), '2', 'reading leaves it as it was');
  const later = Segment.create(path.join(tmp, 'later-cli'));
  const file = later.file;
  later.close();
  const db = new Database(file);
  db.prepare("UPDATE meta SET value = ? WHERE key = 'version'").run(String(SEGMENT_VERSION + 1));
  db.close();
  const refused = await runBin(HAZELNUT, ['readseg', '-get', later.dir, URL]);
  assert.ok(refused.code !== 0);
  assert.ok(refused.err.includes(later.dir) && refused.err.includes(`version ${SEGMENT_VERSION + 1}`), refused.err);
});

test.run();

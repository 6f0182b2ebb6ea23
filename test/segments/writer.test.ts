/**
 * The fetcher's segment writer: what is put is readable once flushed
 * (compressed content, parse text, fetch record) across many batches, and a
 * failing write is reported with the segment, its batch kept out whole.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';
import Database from 'better-sqlite3';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Segment } from '../../segments/segment.js';
import { fetchedRecord } from '../fixtures/fetch-record.js';
import { SegmentWriter, WriterThreads } from '../../segments/segment-writer.js';


test('put, ready and close: every record, body and parse text readable afterwards', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-writer-'));
  try {
    const seg = Segment.create(dir);
    const w = new SegmentWriter(seg);
    const body = (i: number) => Buffer.from(`<p>page ${i} ${'x'.repeat(i)}</p>`);
    for (let i = 0; i < 500; i++) {
      await w.ready();
      const url = `http://127.0.0.9/p${i}`;
      const parse =
        i % 2 ? undefined : { url, status: 'success' as const, title: `Page ${i}`, text: `text of page ${i}`, outlinks: [{ url: 'http://127.0.0.9/', anchor: 'home' }], meta: {} };
      w.put(fetchedRecord(url), { url, contentType: 'text/html', charset: 'utf-8', bytes: body(i), truncated: i === 7 }, parse);
      if (i % 50 === 0) await new Promise((r) => setImmediate(r)); // several batches
    }
    await w.close();
    assert.is(seg.count('fetch'), 500);
    assert.is(seg.count('content'), 500);
    assert.is(seg.count('parse'), 250);
    assert.equal(seg.getContent('http://127.0.0.9/p7')!.bytes, body(7));
    assert.is(seg.getContent('http://127.0.0.9/p7')!.truncated, true);
    assert.equal(seg.getFetch('http://127.0.0.9/p3')!.meta, { ms: 3 });
    const p = seg.getParse('http://127.0.0.9/p42')!;
    assert.is(p.text, 'text of page 42');
    assert.equal(p.outlinks, [{ url: 'http://127.0.0.9/', anchor: 'home' }]);
    seg.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('parse text and long outlink lists are stored brotli-compressed; text stored as TEXT or deflated, as segments were written before, still reads', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-writer-'));
  try {
    const seg = Segment.create(dir);
    const w = new SegmentWriter(seg);
    const url = (i: number) => `http://127.0.0.9/t${i}`;
    // A long list of links is compressed with the text; a short one stays as it is.
    const links = (i: number) => Array.from({ length: i === 3 ? 30 : i }, (_, k) => ({ url: `http://127.0.0.9/t${i}/link/${k}`, anchor: `link ${k}` }));
    const parse = (i: number) => ({ url: url(i), status: 'success' as const, title: 'T', text: i ? `caf\u00e9 \u{1F600} ${i} ${'and more words '.repeat(i * 5)}` : '', outlinks: links(i), meta: {} });
    for (let i = 0; i < 3; i++) w.put(fetchedRecord(url(i)), undefined, parse(i));
    await w.close();
    seg.putParses([parse(3)]);
    const raw = new Database(seg.file);
    const stored = raw.prepare('SELECT text FROM parse WHERE url = ?').pluck();
    assert.is(stored.get(url(0)), '', 'an empty text stays empty');
    for (const i of [1, 3]) assert.is(zlib.brotliDecompressSync(stored.get(url(i)) as Buffer).toString('utf8'), parse(i).text);
    const outlinks = raw.prepare('SELECT outlinks FROM parse WHERE url = ?').pluck();
    assert.is(outlinks.get(url(1)), JSON.stringify(links(1)), 'a short list stays as it is');
    assert.equal(JSON.parse(zlib.brotliDecompressSync(outlinks.get(url(3)) as Buffer).toString('utf8')), links(3));
    // As segments were written before: the text deflated (version 1), or as TEXT (version 2).
    const setText = raw.prepare('UPDATE parse_rows SET text = ? WHERE id = (SELECT rowid FROM fetch WHERE url = ?)');
    setText.run(zlib.deflateSync(parse(2).text), url(2));
    setText.run(parse(1).text, url(1));
    raw.close();
    for (let i = 0; i < 4; i++) assert.is(seg.getParse(url(i))!.text, parse(i).text);
    // What the indexer reads: the same record, its outlinks left out.
    for (let i = 0; i < 4; i++) {
      const { outlinks: _, ...text } = seg.getParse(url(i))!;
      assert.equal(seg.getParseText(url(i)), text);
    }
    assert.is(seg.getParseText('http://127.0.0.9/none'), undefined);
    for (let i = 0; i < 4; i++) assert.equal([seg.getParse(url(i))!.outlinks, seg.getParseLinks(url(i))!.outlinks], [links(i), links(i)]);
    assert.equal([...seg.fetchUpdates()].map((u) => u.parse?.outlinks.length), [0, 1, 2], 'the joined read of updatedb');
    assert.is(seg.withSummarySource(url(2), (s) => s.text.whole()), parse(2).text);
    seg.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("bodies: deflated against their host's dictionary, one a host made from its first body of 1 KB or more, smaller than brotli alone; shorter ones before it in brotli; a zlib body of a segment written before still reads; a body whose dictionary is gone is refused", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-writer-'));
  try {
    const seg = Segment.create(dir);
    const w = new SegmentWriter(seg);
    const random = (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 2654435761) >>> 24));
    // Pages of one site: a template of random words around words of their own.
    const words = (seed: number, n: number) => Array.from({ length: n }, (_, i) => ((i + 1) * (seed + 7) * 2654435761).toString(36).slice(-6)).join(' ');
    const template = words(1, 800);
    const page = (i: number) => Buffer.from(`<html><nav>${template}</nav><main>${words(i + 100, 300)}</main></html>`);
    const pages: [string, Buffer][] = [
      ['http://a.test/empty', Buffer.alloc(0)],
      ['http://a.test/short', Buffer.from('a')],
      ['http://a.test/1', page(1)],
      ['http://a.test/2', page(2)],
      ['http://a.test/random', random(70_000)],
      ['http://a.test/big', Buffer.alloc(3 << 20, 'x')],
      ['http://a.test/random-short', random(300)],
      ['http://b.test/only', page(3)],
    ];
    for (const [url, b] of pages) w.put(fetchedRecord(url), { url, contentType: 'text/html', charset: null, bytes: Buffer.from(b), truncated: false });
    await w.close();
    const raw = new Database(seg.file);
    const stored = new Map((raw.prepare('SELECT url, data FROM content').all() as { url: string; data: Buffer }[]).map((r) => [r.url, r.data]));
    const form = (d: Buffer) => (d[0]! & 1 ? 'brotli' : d[1]! & 0x20 ? 'against a dictionary' : 'zlib');
    assert.equal(
      pages.map(([url]) => [url, form(stored.get(url)!)]),
      pages.map(([url], i) => [url, i < 2 ? 'brotli' : 'against a dictionary']),
    );
    assert.equal(raw.prepare('SELECT host FROM dictionary ORDER BY host').pluck().all(), ['a.test', 'b.test']);
    const alone = zlib.brotliCompressSync(page(2), { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
    assert.ok(stored.get('http://a.test/2')!.length * 2 < alone, `${stored.get('http://a.test/2')!.length} bytes against the dictionary, ${alone} in brotli alone`);
    assert.equal([...seg.contents()].map((c) => c.bytes), pages.map(([, b]) => b));
    raw.prepare('UPDATE content_rows SET data = ? WHERE id = (SELECT rowid FROM fetch WHERE url = ?)').run(zlib.deflateSync(page(1), { level: 1 }), 'http://a.test/1');
    raw.prepare("DELETE FROM dictionary WHERE host = 'b.test'").run();
    raw.close();
    for (const [url, b] of pages.slice(0, -1)) assert.equal(seg.getContent(url)!.bytes, b, url);
    assert.throws(
      () => seg.getContent('http://b.test/only'),
      (e: unknown) => e instanceof Error && e.message === "the body of http://b.test/only was stored against its host's dictionary, which the segment does not hold",
    );
    seg.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

/** A segment whose content table is gone: every write to it fails. */
function segmentWithoutContentTable(dir: string): Segment {
  const seg = Segment.create(dir);
  const raw = new Database(seg.file);
  raw.exec('DROP TABLE content_rows');
  raw.close();
  return seg;
}

test('a write that fails is reported with the segment, not lost silently', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-writer-'));
  try {
    const seg = segmentWithoutContentTable(dir);
    const w = new SegmentWriter(seg);
    const url = 'http://127.0.0.9/x';
    w.put(fetchedRecord(url), { url, contentType: 'text/html', charset: null, bytes: Buffer.from('x'), truncated: false });
    let message = '';
    try {
      await w.close();
    } catch (e) {
      message = (e as Error).message;
    }
    assert.ok(message.includes(`cannot write to segment ${seg.dir}`), message);
    assert.ok(message.includes('content'), message);
    assert.is(seg.count('fetch'), 0, 'the batch is one transaction: nothing of it was kept');
    seg.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a writer whose thread has already failed rejects put and close instead of waiting for it', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-writer-'));
  try {
    const seg = segmentWithoutContentTable(dir);
    const w = new SegmentWriter(seg);
    // The thread fails as it opens: give it time to be gone before anything is put.
    let message = '';
    for (let i = 0; i < 100 && !message; i++) {
      await new Promise((r) => setTimeout(r, 20));
      message = await w.ready().then(
        () => '',
        (e: Error) => e.message,
      );
    }
    assert.ok(message.includes(`cannot write to segment ${seg.dir}`), message);
    const url = 'http://127.0.0.9/y';
    w.put(fetchedRecord(url), { url, contentType: 'text/html', charset: null, bytes: Buffer.from('y'), truncated: false });
    const closed = await w.close().then(
      () => 'closed',
      (e: Error) => e.message,
    );
    assert.ok(closed.includes(`cannot write to segment ${seg.dir}`), closed);
    seg.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

/** A parse module whose parser never finishes loading (the thread stays alive, as one loading slowly would). */
function neverLoadingParser(dir: string): string {
  const file = path.join(dir, 'never.mjs');
  fs.writeFileSync(file, 'export const pageParser = () => new Promise(() => setInterval(() => {}, 1000));\n');
  return pathToFileURL(file).href;
}

test('pages to parse do not wait for a thread still loading its parser: a writer that can parse parses them itself, bodies stored first', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-writer-'));
  const threads = new WriterThreads({ parse: { module: neverLoadingParser(dir), data: null } });
  try {
    const seg = Segment.create(path.join(dir, 'seg'));
    const unstoredAtParse: string[] = [];
    const w = new SegmentWriter(seg, threads, async (record, content) => {
      // Parsed only once the body is committed: a kill now leaves the page stored, for the rerun to parse.
      if (Number(record.url.slice(record.url.lastIndexOf('p') + 1)) % 3 !== 0 && !seg.getContent(record.url)) unstoredAtParse.push(record.url);
      return { url: record.url, status: 'success', title: `here: ${content.bytes.toString()}`, text: 'parsed here', outlinks: [], meta: {} };
    });
    const putAll = async () => {
      for (let i = 0; i < 300; i++) {
        await w.ready();
        const url = `http://127.0.0.9/p${i}`;
        w.put(fetchedRecord(url), { url, contentType: 'text/html', charset: 'utf-8', bytes: Buffer.from(`page ${i}`), truncated: false }, 'in-thread', i % 3 !== 0);
      }
      await w.close();
      return 'closed';
    };
    let timer: NodeJS.Timeout | undefined;
    const closed = await Promise.race([putAll(), new Promise((r) => (timer = setTimeout(() => r('still waiting after 20 s'), 20_000)))]);
    clearTimeout(timer);
    assert.is(closed, 'closed');
    assert.is(seg.count('fetch'), 300);
    assert.is(seg.count('content'), 200, 'every third body is not stored');
    assert.is(seg.count('parse'), 300);
    assert.is(seg.getParse('http://127.0.0.9/p7')!.title, 'here: page 7');
    assert.is(seg.getParse('http://127.0.0.9/p9')!.title, 'here: page 9');
    assert.ok(seg.getFetch('http://127.0.0.9/p9'), 'a page whose body is not stored keeps its fetch record');
    assert.equal(unstoredAtParse, []);
    seg.close();
  } finally {
    await threads.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

/** A parse module whose parser takes a couple of milliseconds a page, so batches arrive while the thread parses. */
function slowParser(dir: string): string {
  const file = path.join(dir, 'slow.mjs');
  fs.writeFileSync(
    file,
    `export const pageParser = async () => (record, content) => {
  const until = Date.now() + 2;
  while (Date.now() < until);
  const body = Buffer.from(content.bytes.buffer, content.bytes.byteOffset, content.bytes.byteLength).toString();
  return { url: record.url, status: 'success', message: null, title: 'thread: ' + body, text: 'text of ' + body, lang: null, signature: null, outlinks: '[]', meta: '{}' };
};
`,
  );
  return pathToFileURL(file).href;
}

test('batches that arrive while the thread parses are stored with the parses done meanwhile: every record, body and parse as put', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-writer-'));
  const threads = new WriterThreads({ parse: { module: slowParser(dir), data: null } });
  try {
    const seg = Segment.create(path.join(dir, 'seg'));
    await new Promise<void>((resolve) => {
      const stop = threads.watchLoads(() => {
        stop();
        resolve();
      });
    });
    const w = new SegmentWriter(seg, threads);
    const body = (i: number) => Buffer.from(`page ${i} ${'x'.repeat(i % 97)}`);
    for (let i = 0; i < 300; i++) {
      await w.ready();
      const url = `http://127.0.0.9/p${i}`;
      w.put(fetchedRecord(url), { url, contentType: 'text/html', charset: 'utf-8', bytes: body(i), truncated: false }, 'in-thread', i % 3 !== 0);
      // A few pages a turn of the event loop, as the fetcher puts them: many batches while the thread parses.
      if (i % 3 === 2) await new Promise((r) => setImmediate(r));
    }
    await w.close();
    assert.is(seg.count('fetch'), 300);
    assert.is(seg.count('content'), 200, 'every third body is not stored');
    assert.is(seg.count('parse'), 300);
    for (let i = 0; i < 300; i++) {
      const url = `http://127.0.0.9/p${i}`;
      assert.equal(seg.getFetch(url)?.meta, { ms: 3 }, url);
      if (i % 3 !== 0) assert.equal(seg.getContent(url)!.bytes, body(i), url);
      const p = seg.getParse(url)!;
      assert.is(p.title, `thread: ${body(i).toString()}`, url);
      assert.is(p.text, `text of ${body(i).toString()}`, url);
    }
    seg.close();
  } finally {
    await threads.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("a closed writer's thread copies the segment's WAL into its file, though another connection still holds the segment open", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-writer-'));
  const threads = new WriterThreads();
  try {
    const seg = Segment.create(dir);
    const w = new SegmentWriter(seg, threads);
    for (let i = 0; i < 50; i++) {
      await w.ready();
      const url = `http://127.0.0.9/p${i}`;
      w.put(fetchedRecord(url), { url, contentType: 'text/html', charset: 'utf-8', bytes: Buffer.from(`<p>page ${i}</p>`), truncated: false });
    }
    await w.close();
    // Once the thread has exited, it is done with what it does after the close.
    await threads.close();
    // The segment's own connection is open, so no close has copied the WAL: the file alone holds every page.
    const copy = path.join(dir, 'copy.sqlite');
    fs.copyFileSync(seg.file, copy);
    const db = new Database(copy);
    assert.is(db.prepare('SELECT COUNT(*) FROM fetch').pluck().get(), 50);
    db.close();
    seg.close();
  } finally {
    await threads.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test.run();

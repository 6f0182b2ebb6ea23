/**
 * The parse text stored against the page's body (segments/packing.ts): which
 * form each text takes, that every reader gets the text back (a parse, the
 * parses of a segment, a summary source), and that a text whose body is gone
 * fails with a message rather than reading as something else.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import Database from 'better-sqlite3';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { packText, unpackText } from '../../segments/packing.js';
import { Segment, type FetchRecord } from '../../segments/segment.js';
import { SegmentWriter } from '../../segments/segment-writer.js';
import { HzError } from '../../shared/errors.js';

// Words of random letters: text that compresses about as much as prose does, not a repeated phrase deflate alone would shrink to nothing.
const prose = (n: number) => Array.from({ length: n }, () => crypto.randomBytes(4).toString('hex')).join(' ');
const TEXT = prose(600);
const HTML = `<html><head><title>T</title></head><body><nav><a href="/">home</a></nav><p>${TEXT.slice(0, 2000)}</p><p>${TEXT.slice(2000)}</p></body></html>`;

type Form = 'plain' | 'against the body' | 'brotli';
const formOf = (b: Buffer | string): Form => (typeof b === 'string' ? 'plain' : b[0]! & 1 ? 'brotli' : b[1]! & 0x20 ? 'against the body' : 'brotli');

const cases: [string, string, Uint8Array | undefined, Form][] = [
  ['a short text stays as it is', 'short', Buffer.from(HTML), 'plain'],
  ['a text found in its body is deflated against it', TEXT, Buffer.from(HTML), 'against the body'],
  ['without a body, brotli', TEXT, undefined, 'brotli'],
  ['with an empty body, brotli', TEXT, Buffer.alloc(0), 'brotli'],
  ['a body that holds none of the text: brotli, smaller there', TEXT, crypto.randomBytes(20_000), 'brotli'],
];
for (const [name, text, body, form] of cases)
  test(`packText: ${name}`, () => {
    const packed = packText(text, body);
    assert.is(formOf(packed), form);
    const stored = body?.length ? zlib.brotliCompressSync(body) : null;
    assert.is(unpackText(packed, { body: stored }), text);
  });

test('packText: against the body, the text takes a fraction of what brotli keeps of it alone', () => {
  const against = packText(TEXT, Buffer.from(HTML)) as Buffer;
  const alone = packText(TEXT) as Buffer;
  assert.ok(against.length * 4 < alone.length, `${against.length} bytes against the body, ${alone.length} alone`);
});

test('packText: a body past 32 KB is read from its end, where deflate looks', () => {
  const body = Buffer.from(`<p>${prose(20_000)}</p>${HTML}`);
  assert.ok(body.length > 65_536);
  const packed = packText(TEXT, body);
  assert.is(formOf(packed), 'against the body');
  assert.is(unpackText(packed, { body: zlib.brotliCompressSync(body) }), TEXT);
});

const rec = (url: string): FetchRecord => ({ url, status: 'fetch_success', protocolStatus: 'success', httpStatus: 200, fetchTime: 1_700_000_000_000, headers: {}, contentType: 'text/html' });

test('a segment: the text stored against the body reads back from getParse, parses() and the summary source; a text whose body is gone is refused', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-textbody-'));
  try {
    const seg = Segment.create(dir);
    const w = new SegmentWriter(seg);
    const urls = ['http://127.0.0.9/kept', 'http://127.0.0.9/unstored'];
    for (const [i, url] of urls.entries())
      w.put(rec(url), { url, contentType: 'text/html', charset: 'utf-8', bytes: Buffer.from(HTML), truncated: false }, { url, status: 'success', title: 'T', text: TEXT, outlinks: [], meta: {} }, i === 0);
    await w.close();
    const file = seg.file;
    const raw = new Database(file, { readonly: true });
    const forms = raw.prepare('SELECT url, text FROM parse ORDER BY url').all() as { url: string; text: Buffer }[];
    raw.close();
    assert.equal(
      forms.map((r) => [r.url, formOf(r.text)]),
      [
        [urls[0], 'against the body'],
        [urls[1], 'brotli'],
      ],
    );
    for (const url of urls) {
      assert.is(seg.getParse(url)!.text, TEXT, url);
      assert.is(seg.withSummarySource(url, (s) => s.text.whole()), TEXT, url);
    }
    assert.equal([...seg.parses()].map((p) => p.text), [TEXT, TEXT]);
    seg.close();

    const db = new Database(file);
    db.prepare('DELETE FROM content_rows WHERE id = (SELECT rowid FROM fetch WHERE url = ?)').run(urls[0]);
    db.close();
    const again = Segment.open(path.dirname(file), { readonly: true });
    try {
      assert.throws(() => again.getParse(urls[0]!), (e: unknown) => e instanceof HzError && e.message === `the parse text of ${urls[0]} was stored against the page body, which the segment does not hold`);
      assert.throws(() => again.withSummarySource(urls[0]!, (s) => s.text.whole()), /stored against the page body/);
      assert.is(again.getParse(urls[1]!)!.text, TEXT);
    } finally {
      again.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test.run();

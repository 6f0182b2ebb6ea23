/**
 * A new segment file (Segment.create, and a fetch partition's file): built
 * under another name and renamed into place, it comes with 1 KiB pages, the
 * WAL journal, the schema and its version, and no file of the build left
 * beside it; a build a killed process left half-made is replaced.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Segment, SEGMENT_VERSION } from '../../segments/segment.js';
import { segmentFile, segmentPartDir } from '../../shared/crawl-dir.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-segcreate-'));
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** What a fresh connection sees of a closed segment file. */
function fileState(file: string) {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return {
      pageSize: db.pragma('page_size', { simple: true }),
      journal: db.pragma('journal_mode', { simple: true }),
      version: (db.prepare("SELECT value FROM meta WHERE key = 'version'").get() as { value: string }).value,
      tables: (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((r) => r.name),
    };
  } finally {
    db.close();
  }
}

// Format 7: content keyed by the fetch row, no table of content by URL (the view content reads it so).
const TABLES = ['content_rows', 'dictionary', 'fetch', 'fetchlist', 'meta', 'parse_rows', 'parse_urls', 'partition_hosts', 'summary'];

test('Segment.create: 512-byte pages, WAL, the schema and version, nothing of the build left beside it', () => {
  const seg = Segment.create(path.join(tmp, 'a'), new Date(Date.UTC(2024, 0, 1)));
  seg.addFetchlist([{ url: 'http://a.test/', host: 'a.test', score: 1, datum: {} }]);
  seg.markPhase('generated', 1000);
  const file = seg.file;
  seg.close();
  assert.equal(fileState(file), { pageSize: 512, journal: 'wal', version: String(SEGMENT_VERSION), tables: TABLES });
  assert.equal(fs.readdirSync(path.dirname(file)).filter((f) => f.includes('.new')), []);
  const again = Segment.open(path.dirname(file), { readonly: true });
  assert.equal([...again.fetchlist()].map((e) => e.url), ['http://a.test/']);
  assert.ok(again.hasPhase('generated'));
  again.close();
});

test('a fetch partition file: the same format, with its share of the fetchlist, over a build a killed fetcher left half-made', () => {
  const seg = Segment.create(path.join(tmp, 'b'), new Date(Date.UTC(2024, 0, 1)));
  seg.addFetchlist(['http://a.test/', 'http://b.test/'].map((url) => ({ url, host: new URL(url).host, score: 1, datum: {} })));
  seg.setPartitions(new Map([['a.test', 0], ['b.test', 1]]), 2);
  seg.markPhase('generated', 1000);
  const torn = `${segmentFile(segmentPartDir(seg.dir, 1))}.new`;
  fs.mkdirSync(path.dirname(torn), { recursive: true });
  fs.writeFileSync(torn, 'torn');
  const part = seg.openPart(1);
  const file = part.file;
  assert.equal([...part.fetchlist()].map((e) => e.url), ['http://b.test/']);
  part.close();
  seg.close();
  assert.equal(fileState(file), { pageSize: 512, journal: 'wal', version: String(SEGMENT_VERSION), tables: TABLES });
  assert.not.ok(fs.existsSync(torn));
});

test.run();

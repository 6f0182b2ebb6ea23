import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import readdbTool, { CSV_HEADER, csvField, csvRecord, dumpDb, formatStats, getPage, readDbStats, topN } from '../../crawler/readdb.js';
import { webDbSql } from '../fixtures/webdb-sql.js';
import { openWebDb } from '../../crawler/webdb/webdb.js';
import { Conf } from '../../shared/conf.js';
import { HzError, UsageError } from '../../shared/errors.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-readdb-'));
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

const webdb = path.join(tmp, 'crawl', 'webdb');
const T = Date.UTC(2024, 0, 1);
// url, host, status, retries, score, signature, metadata
const ROWS: [string, string, string, number, number, string | null, string | null][] = [
  ['http://127.0.2.1/', '127.0.2.1', 'db_fetched', 0, 2, 'abc', null],
  ['http://127.0.2.1/a', '127.0.2.1', 'db_unfetched', 1, 0.5, null, '{"k":"v"}'],
  ['http://127.0.2.1/b', '127.0.2.1', 'db_gone', 3, 0.25, null, null],
  ['http://127.0.2.2/', '127.0.2.2', 'db_unfetched', 0, 1.25, null, null],
  ['http://127.0.2.2/"q"', '127.0.2.2', 'db_redir_perm', 0, 1, null, null],
];
{
  const db = webDbSql(webdb);
  const ins = db.prepare('INSERT INTO pages (url, host, status, fetch_time, fetch_interval, retries, score, signature, metadata) VALUES (?,?,?,?,?,?,?,?,?)');
  for (const r of ROWS) ins.run(r[0], r[1], r[2], T, 2592000, r[3], r[4], r[5], r[6]);
  db.close();
}

function io() {
  const out = new PassThrough();
  const chunks: string[] = [];
  out.on('data', (c) => chunks.push(String(c)));
  return { out, text: () => chunks.join('') };
}

test('-stats in Nutch form, statuses in code order, per host with -sort', () => {
  const db = openWebDb(webdb, { readonly: true });
  try {
    assert.is(
      formatStats('W', readDbStats(db)),
      [
        'Statistics for WebDB: W',
        'TOTAL urls:\t5',
        'retry 0:\t3',
        'retry 1:\t1',
        'retry 3:\t1',
        'min score:\t0.25',
        'avg score:\t1',
        'max score:\t2',
        'status 1 (db_unfetched):\t2',
        'status 2 (db_fetched):\t1',
        'status 3 (db_gone):\t1',
        'status 5 (db_redir_perm):\t1',
        'WebDB statistics: done',
        '',
      ].join('\n'),
    );
    const sorted = formatStats('W', readDbStats(db, { sort: true }));
    assert.ok(sorted.includes('status 1 (db_unfetched):\t2\n   127.0.2.1 :\t1\n   127.0.2.2 :\t1\nstatus 2 (db_fetched):\t1\n   127.0.2.1 :\t1\n'), sorted);
  } finally {
    db.close();
  }
});

test('csvField quotes as RFC 4180 has it: only a field with a comma, a quote or a line break, quotes doubled', () => {
  const cases: [string | number, string][] = [
    ['http://127.0.2.1/a', 'http://127.0.2.1/a'],
    [0.5, '0.5'],
    ['', ''],
    ['http://h/a,b', '"http://h/a,b"'],
    ['http://h/"q"', '"http://h/""q"""'],
    ['a;b', 'a;b'],
    ['two\nlines', '"two\nlines"'],
    ['cr\r', '"cr\r"'],
    ['k:v x:1,2', '"k:v x:1,2"'],
  ];
  for (const [v, want] of cases) assert.is(csvField(v), want, String(v));
  assert.is(csvRecord(['a,b', 1, '']), '"a,b",1,\r\n');
});

test('-dump: normal, csv (Nutch header, commas and quoting) and json lines', () => {
  const db = openWebDb(webdb, { readonly: true });
  try {
    const csv = path.join(tmp, 'dump.csv');
    assert.is(dumpDb(db, csv, 'csv', process.stdout), 5);
    const dumped = fs.readFileSync(csv, 'utf8');
    assert.ok(dumped.endsWith('\r\n') && !/[^\r]\n/.test(dumped), 'every record ends with CRLF');
    const lines = dumped.trimEnd().split('\r\n');
    assert.is(lines[0], CSV_HEADER);
    assert.is(lines[0]!.split(',').length, 10);
    assert.is(lines.length, 6);
    assert.is(lines[2], `http://127.0.2.1/a,1,db_unfetched,2024-01-01T00:00:00.000Z,1970-01-01T00:00:00.000Z,1,2592000,0.5,,k:v`);
    assert.ok(lines.includes(`"http://127.0.2.2/""q""",5,db_redir_perm,2024-01-01T00:00:00.000Z,1970-01-01T00:00:00.000Z,0,2592000,1,,`), lines.join('\n'));

    const json = path.join(tmp, 'dump.json');
    dumpDb(db, json, 'json', process.stdout);
    const objs = fs.readFileSync(json, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
    assert.equal(objs.map((o) => [o.url, o.statusCode, o.score]), ROWS.map((r) => [r[0], { db_fetched: 2, db_unfetched: 1, db_gone: 3, db_redir_perm: 5 }[r[2]], r[4]]).sort((a, b) => ((a[0] as string) < (b[0] as string) ? -1 : 1)));
    assert.equal(objs[1].metadata, { k: 'v' });

    const { out, text } = io();
    dumpDb(db, '-', 'normal', out);
    assert.ok(text().startsWith('http://127.0.2.1/\tVersion: 1\nStatus: 2 (db_fetched)\nFetch time: 2024-01-01T00:00:00.000Z\n'), text());
    assert.ok(text().includes('Retry interval: 2592000 seconds (30 days)\nScore: 2\nSignature: abc\n'));
  } finally {
    db.close();
  }
});

test('-topN is score order with a minimum; -url finds raw or normalized', () => {
  const db = openWebDb(webdb, { readonly: true });
  try {
    assert.equal(topN(db, 2), [
      { url: 'http://127.0.2.1/', score: 2 },
      { url: 'http://127.0.2.2/', score: 1.25 },
    ]);
    assert.equal(topN(db, 10, 0.5).map((r) => r.score), [2, 1.25, 1, 0.5]);
    assert.is(getPage(db, 'HTTP://127.0.2.1:80/a#x')?.url, 'http://127.0.2.1/a');
    assert.is(getPage(db, 'http://127.0.2.9/'), undefined);
  } finally {
    db.close();
  }
});

test('the tool: outputs, bad arguments, missing WebDB', async () => {
  const conf = Conf.load({});
  const run = async (args: string[]) => {
    const { out, text } = io();
    const err = new PassThrough();
    const code = await readdbTool.run({ conf, out, err, tty: false, confOverrides: {} }, args);
    return { code, text: text() };
  };
  const top = path.join(tmp, 'top.txt');
  assert.is((await run([webdb, '-topN', '3', top, '1'])).code, 0);
  assert.is(fs.readFileSync(top, 'utf8'), '2\thttp://127.0.2.1/\n1.25\thttp://127.0.2.2/\n1\thttp://127.0.2.2/"q"\n');
  assert.match((await run([webdb, '-url', 'http://127.0.2.1/b'])).text, /^URL: http:\/\/127\.0\.2\.1\/b\n.*Status: 3 \(db_gone\)/s);
  assert.match((await run([webdb, '-stats'])).text, /TOTAL urls:\t5/);
  const bad: [string[], RegExp, typeof HzError][] = [
    [[webdb], /missing -stats, -dump, -url or -topN/, UsageError],
    [[webdb, '-stats', '-dump', 'x'], /choose one of -stats, -dump/, UsageError],
    [[webdb, '-dump', 'x', '-format', 'xml'], /-format must be normal, csv or json/, UsageError],
    [[webdb, '-topN', 'ten', 'x'], /-topN needs an integer/, UsageError],
    [[webdb, '-topN', '3'], /-topN needs <n> <out>/, UsageError],
    [[webdb, '-stats', '-bogus'], /unknown option -bogus/, UsageError],
    [[webdb, '-url', 'http://127.0.2.9/'], /URL not found in .*: http:\/\/127\.0\.2\.9\//, HzError],
    [[path.join(tmp, 'nowhere'), '-stats'], /no WebDB at .*nowhere.*run 'hazelnut inject' first/, HzError],
  ];
  for (const [args, re, cls] of bad) {
    try {
      await run(args);
      assert.unreachable(args.join(' '));
    } catch (e) {
      assert.instance(e, cls, args.join(' '));
      assert.match((e as Error).message, re, args.join(' '));
    }
  }
  assert.not.ok(fs.existsSync(path.join(tmp, 'nowhere')), 'readdb creates nothing');
});

test.run();

/**
 * protocol-file: a temporary directory tree crawled through file: URLs —
 * directories as link lists, URL filters obeyed, PDF and .docx parsed,
 * modification times answering a re-crawl's If-Modified-Since; and off
 * unless plugin.includes names it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { directoryPage, fileContentType, getFile } from '../../../crawler/fetch/protocol-file.js';
import { openWebDb } from '../../../crawler/webdb/webdb.js';
import { makeDocx, makePdf } from '../../fixtures/documents.js';
import { shareConf } from '../../fixtures/share.js';
import { hz, tempConf } from '../checkers/run-cli.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-file-'));
const share = path.join(tmp, 'share');
const url = (p: string) => pathToFileURL(path.join(share, p)).href;
const write = (p: string, body: string | Buffer) => {
  fs.mkdirSync(path.dirname(path.join(share, p)), { recursive: true });
  fs.writeFileSync(path.join(share, p), body);
};
const old = new Date(Date.UTC(2024, 0, 2, 3, 4, 5));

test.before(() => {
  write('handbook.html', '<html><head><title>Handbook</title></head><body><p>Welcome aboard.</p><a href="policies/remote.docx">Remote work</a></body></html>');
  write('notes.txt', 'Meeting notes: the cafeteria opens at eight.');
  write('policies/travel.pdf', makePdf([['Travel policy', 'Trains for trips under four hours.']], { title: 'Travel Policy' }));
  write('policies/remote.docx', makeDocx([{ heading: 'Remote work' }, { para: 'Home office on Fridays.' }]));
  write('private/salaries.txt', 'Confidential salary bands.');
  write('weird name & co.txt', 'A file with spaces and an ampersand in its name.');
  for (const f of ['handbook.html', 'notes.txt', 'policies/travel.pdf', 'policies/remote.docx', 'private/salaries.txt', 'weird name & co.txt']) fs.utimesSync(path.join(share, f), old, old);
});
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

test('answers: a directory as links, a file with its type and mtime, 301, 304 and 404', async () => {
  const dir = await getFile({ url: url('/') }, 1 << 20);
  assert.is(dir.status, 200);
  assert.is(dir.headers['content-type'], 'text/html; charset=utf-8');
  const page = dir.body.toString();
  assert.ok(page.includes(`<a href="${url('handbook.html')}">handbook.html</a>`), page);
  assert.ok(page.includes('<meta name="robots" content="noindex">'), 'a listing is followed, never a hit');
  assert.ok(page.includes(`<a href="${url('policies/')}">policies/</a>`));
  assert.ok(page.includes(`<a href="${url('weird name & co.txt').replace(/&/g, '&amp;')}">weird name &amp; co.txt</a>`));
  assert.equal((await getFile({ url: url('policies') }, 1 << 20)).headers.location, url('policies/'));
  const f = await getFile({ url: url('notes.txt') }, 1 << 20);
  assert.is(f.status, 200);
  assert.is(f.headers['content-type'], 'text/plain');
  assert.is(f.headers['last-modified'], old.toUTCString());
  assert.is((await getFile({ url: url('notes.txt'), ifModifiedSince: old.toUTCString() }, 1 << 20)).status, 304);
  assert.is((await getFile({ url: url('notes.txt'), ifModifiedSince: new Date(old.getTime() - 1000).toUTCString() }, 1 << 20)).status, 200);
  assert.is((await getFile({ url: url('nope.txt') }, 1 << 20)).status, 404);
  const cut = await getFile({ url: url('notes.txt') }, 7);
  assert.is(cut.body.toString(), 'Meeting');
  assert.is(cut.truncated, true);
  assert.is(fileContentType('a/B.DOCX'), 'application/vnd.openxmlformats-officedocument.wordprocessingml.document');
  assert.is(fileContentType('a/b.bin'), 'application/octet-stream');
  assert.match(directoryPage('/x', [{ name: 'b', dir: false }, { name: 'a', dir: true }]), /"file:\/\/\/x\/a\/">a\/<\/a><\/li>\n<li><a href="file:\/\/\/x\/b">b</);
});

test('a crawl of the tree: every file reached through the directory pages, the filters obeyed; mtimes for the re-crawl', async () => {
  const conf = shareConf(url('/'), '-^file:.*/private/\n');
  try {
    const seeds = path.join(tmp, 'seeds.txt');
    fs.writeFileSync(seeds, `${url('/')}\n`);
    const dir = path.join(tmp, 'crawl');
    const args = [...conf.args, '-D', 'db.fetch.interval.default=1'];
    const r = await hz([...args, 'crawl', seeds, '-dir', dir, '-depth', '4'], { confDir: conf.dir });
    assert.is(r.code, 0, r.err);
    const db = openWebDb(path.join(dir, 'webdb'), { readonly: true });
    try {
      for (const p of ['/', 'handbook.html', 'notes.txt', 'policies/', 'policies/travel.pdf', 'policies/remote.docx', 'weird name & co.txt'])
        // With a 1 s interval a later round may have fetched it again, unmodified.
        assert.ok(['db_fetched', 'db_notmodified'].includes(db.page(new URL(url(p)).href)?.status ?? ''), p);
      assert.is(db.page(url('private/')), undefined, 'the URL filter keeps the private directory out');
      assert.is(db.page(url('private/salaries.txt')), undefined);
    } finally {
      db.close();
    }
    // The five files; the two directory listings were followed for their links but not indexed.
    assert.match(r.out, /documents indexed\s+5/);

    // A second crawl once everything is due: only the changed file is read again.
    write('notes.txt', 'Meeting notes: the cafeteria now opens at seven.');
    await new Promise((res) => setTimeout(res, 1100));
    const again = await hz([...args, 'crawl', seeds, '-dir', dir, '-depth', '1'], { confDir: conf.dir });
    assert.is(again.code, 0, again.err);
    assert.match(again.out, /pages fetched\s+7 \(1 ok, 6 not modified\)/);
  } finally {
    conf.cleanup();
  }
});

test('off unless plugin.includes names it', async () => {
  const conf = tempConf({ 'regex-urlfilter.txt': '+.\n' });
  try {
    const seeds = path.join(tmp, 'seeds-off.txt');
    fs.writeFileSync(seeds, `${url('/')}\n`);
    const r = await hz(['-D', 'http.agent.name=hzTest', '-D', 'fetcher.server.delay=0', 'crawl', seeds, '-dir', path.join(tmp, 'crawl-off'), '-depth', '1'], { confDir: conf.dir });
    assert.match(r.out + r.err, /protocol-file|no active protocol plugin fetches file/);
    assert.not.match(r.out, /documents indexed\s+[1-9]/);
  } finally {
    conf.cleanup();
  }
});

test.run();

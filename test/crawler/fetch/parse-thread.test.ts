/**
 * The inline parse runs beside the fetch loop, not on its path: while one
 * page of a host is still being parsed, the host's next page is already
 * requested (one at a time, as politeness wants), and what the parse thread
 * produced lands in the segment as the inline parse always did, its text
 * stored against the page's body.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fetch, parseThreads } from '../../../crawler/fetch/tool.js';
import { Conf } from '../../../shared/conf.js';
import { Segment } from '../../../segments/segment.js';
import { WriterThreads } from '../../../segments/segment-writer.js';
import { startTestWeb, type TestWeb } from '../../fixtures/testweb.js';
import { makeSegment, tempCrawl } from './helpers.js';

const CHANNEL = 'hz-test-parse-thread';

// A parser that finishes only once it hears that the host's next page was requested (or after 3 s).
const PLUGIN = `
export default [{ id: 'parse-wait', point: 'parser', description: 'waits for the next request', create: () => ({
  contentTypes: ['text/x-wait'],
  async parse() {
    const bc = new BroadcastChannel(${JSON.stringify(CHANNEL)});
    const heard = await new Promise((resolve) => {
      const t = setTimeout(() => resolve(false), 3000);
      bc.onmessage = () => { clearTimeout(t); resolve(true); };
    });
    bc.close();
    return { status: 'success', title: heard ? 'next requested during the parse' : 'next not requested during the parse', text: 'waited', outlinks: [], meta: {} };
  },
}) }];
`;

let web: TestWeb;
let dir: string;
// Words of random letters, so that only the body can make the stored text small.
const WORDS = Array.from({ length: 400 }, () => crypto.randomBytes(4).toString('hex')).join(' ');

test.before(async () => {
  web = await startTestWeb({
    block: '127.0.3',
    hosts: { w: { pages: { '/slow': { body: 'x', contentType: 'text/x-wait' }, '/next': '<title>Next</title><p>the page after</p>', '/long': `<title>Long</title><p>${WORDS}</p>` } } },
  });
  dir = tempCrawl();
  fs.mkdirSync(path.join(dir, 'conf', 'plugins'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'conf', 'plugins', 'wait.mjs'), PLUGIN);
});

test.after(async () => {
  await web.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

test("a host's next page is requested while its previous page is still being parsed, one request at a time", async () => {
  const seg = makeSegment(dir, [web.url('w', '/slow'), web.url('w', '/next')]);
  const conf = Conf.load({
    confDir: path.join(dir, 'conf'),
    overrides: { 'http.agent.name': 'HzTest', 'fetcher.server.delay': '0', 'fetcher.threads.fetch': '2', 'http.timeout': '1000' },
  });
  const bc = new BroadcastChannel(CHANNEL);
  const watch = setInterval(() => {
    if (web.requestsTo('w', '/next').length) bc.postMessage('next');
  }, 10);
  try {
    const s = await fetch(conf, seg);
    assert.ok(s.complete);
  } finally {
    clearInterval(watch);
    bc.close();
  }
  const out = Segment.open(seg, { readonly: true });
  try {
    assert.is(out.getParse(web.url('w', '/slow'))?.title, 'next requested during the parse');
    assert.is(out.getParse(web.url('w', '/next'))?.title, 'Next');
    assert.ok(out.hasPhase('parsed'));
  } finally {
    out.close();
  }
  assert.is(web.maxConcurrency('w'), 1);
});

test("the parse thread stores a page's text deflated against its stored body, and it reads back", async () => {
  const seg = makeSegment(dir, [web.url('w', '/long')]);
  const conf = Conf.load({ confDir: path.join(dir, 'conf'), overrides: { 'http.agent.name': 'HzTest', 'fetcher.server.delay': '0' } });
  assert.ok((await fetch(conf, seg)).complete);
  const out = Segment.open(seg, { readonly: true });
  const file = out.file;
  try {
    assert.ok(out.getParse(web.url('w', '/long'))!.text.includes(WORDS));
  } finally {
    out.close();
  }
  const raw = new Database(file, { readonly: true });
  try {
    const text = raw.prepare('SELECT text FROM parse WHERE url = ?').pluck().get(web.url('w', '/long')) as Buffer;
    // A zlib header (even first byte) with FDICT set: deflated against a dictionary, the body.
    assert.ok(!(text[0]! & 1) && (text[1]! & 0x20) !== 0, `stored form ${text.subarray(0, 2).toString('hex')}`);
    assert.ok(text.length * 4 < WORDS.length, `${text.length} bytes stored for ${WORDS.length} of text`);
  } finally {
    raw.close();
  }
});

test('one rule for the parse threads: none without parsing, the ones given, else new ones that parse', async () => {
  const conf = Conf.load({ confDir: path.join(dir, 'conf'), overrides: { 'http.agent.name': 'HzTest' } });
  assert.is(parseThreads(conf, { parse: false }), undefined);
  assert.is(parseThreads(conf.with({ 'fetcher.parse': 'false' })), undefined);
  const given = new WriterThreads();
  const made = parseThreads(conf);
  try {
    assert.is(parseThreads(conf, { writers: given }), given);
    assert.is(parseThreads(conf, { parse: false, writers: given }), undefined);
    assert.ok(made instanceof WriterThreads && made.parses);
  } finally {
    await given.close();
    await made?.close();
  }
});

test.run();

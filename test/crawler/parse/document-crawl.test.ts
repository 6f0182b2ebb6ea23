/**
 * PDF and office files through the whole pipeline: a loopback site links a
 * generated PDF and .docx; `hazelnut crawl` fetches and parses them in the
 * document worker; the searcher finds them by their text, their author and
 * `type:pdf`, shows their type on the result page and their extracted text
 * in the cached view.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Conf } from '../../../shared/conf.js';
import { startSearcher, type RunningSearcher } from '../../../searcher/server.js';
import { makeDocx, makePdf } from '../../fixtures/documents.js';
import { startTestWeb, type TestWeb } from '../../fixtures/testweb.js';
import { hz, tempConf } from '../checkers/run-cli.js';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
let web: TestWeb;
let s: RunningSearcher | undefined;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-docs-'));
const conf = tempConf();

test.before(async () => {
  web = await startTestWeb({
    block: '127.0.9',
    hosts: {
      intranet: {
        pages: {
          '/': '<html><head><title>Policies</title></head><body><a href="/travel.pdf">Travel</a> <a href="/remote.docx">Remote</a></body></html>',
          '/travel.pdf': {
            contentType: 'application/pdf',
            body: makePdf([['Travel policy', 'Book trains for short trips.'], ['Expenses', 'Keep every receipt for seven years.']], {
              title: 'Travel Policy',
              author: 'Ann Smith',
              modified: '2025-03-04T05:06:07Z',
            }),
          },
          '/remote.docx': {
            contentType: DOCX,
            body: makeDocx([{ heading: 'Remote work' }, { para: 'Staff may work from home on Fridays.' }], { author: 'Bo Chen' }),
          },
        },
      },
    },
  });
});

test.after(async () => {
  await s?.close();
  await web.stop();
  conf.cleanup();
  fs.rmSync(tmp, { recursive: true, force: true });
});

test('crawl PDF and .docx, then find them by text, author and type:pdf', async () => {
  const seeds = path.join(tmp, 'seeds.txt');
  fs.writeFileSync(seeds, `${web.url('intranet', '/')}\n`);
  const dir = path.join(tmp, 'crawl');
  const r = await hz(['-D', 'http.agent.name=hzTest', '-D', 'fetcher.server.delay=0', 'crawl', seeds, '-dir', dir, '-depth', '2'], { confDir: conf.dir });
  assert.is(r.code, 0, r.err);
  assert.match(r.out, /documents indexed\s+3/);

  s = await startSearcher(Conf.load(), { dir, port: 0, host: '127.0.9.200' });
  const api = async (q: string) => (await (await fetch(`${s!.url}/api/search?query=${encodeURIComponent(q)}`)).json()) as { hits: { url: string; title: string }[] };
  const pdf = web.url('intranet', '/travel.pdf');
  const docx = web.url('intranet', '/remote.docx');
  assert.equal((await api('receipt')).hits.map((h) => [h.url, h.title]), [[pdf, 'Travel Policy']]);
  assert.equal((await api('smith')).hits.map((h) => h.url), [pdf], 'the author is searchable');
  assert.equal((await api('fridays')).hits.map((h) => [h.url, h.title]), [[docx, 'Remote work']]);
  assert.equal((await api('policy type:pdf')).hits.map((h) => h.url), [pdf]);
  assert.equal((await api('fridays type:pdf')).hits, []);
  assert.equal((await api('type:application/pdf')).hits.map((h) => h.url), [pdf]);
  assert.equal((await api('type:pdf')).hits.map((h) => h.url), [pdf], 'the format by its extension lists its documents');
  assert.equal((await api('type:docx')).hits.map((h) => h.url), [docx]);
  assert.equal((await api('fridays -type:docx')).hits, []);
  assert.equal((await api('receipt date:20250301-20250331')).hits.map((h) => h.url), [pdf], "the document's own date");

  const page = await (await fetch(`${s.url}/search?query=receipt`)).text();
  assert.match(page, /<div class="meta">PDF · /, 'the result shows the type by its name');
  const text = await (await fetch(`${s.url}/text?url=${encodeURIComponent(pdf)}`)).text();
  assert.match(text, /Keep every receipt for seven years\./, 'the cached view shows the extracted text');
});

test.run();

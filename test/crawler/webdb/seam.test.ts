import { test } from 'uvu';
import * as assert from 'uvu/assert';
import path from 'node:path';
import { crawlDirOfWebDb } from '../../../crawler/webdb/lock.js';
import { sharesPartitionsRemotely, shownWebDb, webDbKind } from '../../../crawler/webdb/webdb.js';

test('where a WebDB lives, what it shares and how messages show it', () => {
  const cases: [string, 'embedded' | 'server', boolean, string][] = [
    ['/data/crawl/webdb', 'embedded', false, '/data/crawl/webdb'],
    ['', 'embedded', false, ''],
    ['postgresql://hz@db:5432/web', 'server', true, 'postgresql://hz@db:5432/web'],
    ['postgres://hz:secret@db/web', 'server', true, 'postgres://hz:***@db/web'],
    ['POSTGRESQL://db/web', 'server', true, 'POSTGRESQL://db/web'],
    ['crawl/postgresql:/webdb', 'embedded', false, 'crawl/postgresql:/webdb'],
  ];
  for (const [where, kind, shares, shown] of cases) {
    assert.is(webDbKind(where), kind, where);
    assert.is(sharesPartitionsRemotely(where), shares, where);
    assert.is(shownWebDb(where), shown, where);
  }
});

test("an embedded WebDB's crawl directory is its parent; a server's WebDB has none", () => {
  assert.is(crawlDirOfWebDb('/data/crawl/webdb'), path.resolve('/data/crawl'));
  assert.is(crawlDirOfWebDb('postgresql://hz@db/web'), undefined);
});

test.run();

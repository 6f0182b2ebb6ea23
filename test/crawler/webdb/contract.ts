/**
 * The WebDB contract: what every backend's operations do, through the
 * WebDb interface alone. SQLite runs it in `npm test`
 * (sqlite-contract.test.ts), PostgreSQL in `npm run test:cluster`
 * (test/cluster/webdb-postgres.cluster.ts). A backend is a factory of fresh,
 * empty stores; a store can be opened more than once (read-only opens too).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { PageRow, Seed, WebDb } from '../../../crawler/webdb/webdb.js';
import { partitionCases } from './partitions.js';

export interface Store {
  open(opts?: { create?: boolean; readonly?: boolean }): WebDb;
  drop(): Promise<void> | void;
}

export interface Backend {
  name: string;
  /** Before the first case and after the last (a server to start and stop). */
  setup?(): Promise<void> | void;
  teardown?(): Promise<void> | void;
  /** A fresh store, nothing created in it yet. */
  fresh(): Promise<Store>;
}

const T0 = 1_700_000_000_000;
const DAY = 86_400_000;

function seed(url: string, score = 1, meta: string | null = null): Seed {
  return { url, host: new URL(url).host, score, interval: 2_592_000, meta };
}

/** The stored links to one target, through the batched read invertlinks makes. */
function linksTo(db: WebDb, target: string) {
  return db.linksToEach([target]).get(target) ?? [];
}

function row(url: string, over: Partial<PageRow> = {}): PageRow {
  return {
    url,
    host: new URL(url).host,
    status: 'db_fetched',
    fetch_time: T0 + DAY,
    fetch_interval: 2_592_000,
    retries: 0,
    score: 1,
    link_score: 0,
    signature: 'abc',
    modified_time: T0 - DAY,
    last_fetch_time: T0,
    generate_time: null,
    protocol_status: 'success',
    etag: '"e1"',
    last_modified: 'Tue, 14 Nov 2023 22:13:20 GMT',
    metadata: '{"k":"v"}',
    ...over,
  };
}

/** Runs `fn` with a freshly created WebDB, then closes and drops it. */
async function withDb(backend: Backend, fn: (db: WebDb, store: Store) => void | Promise<void>): Promise<void> {
  const store = await backend.fresh();
  const db = store.open({ create: true });
  try {
    await fn(db, store);
  } finally {
    db.close();
    await store.drop();
  }
}

const sorted = <T>(xs: T[]) => [...xs].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));

export function webDbContract(backend: Backend): void {
  const t = suite(`WebDB contract: ${backend.name}`);
  const it = (name: string, fn: (db: WebDb, store: Store) => void | Promise<void>) => t(name, () => withDb(backend, fn));
  if (backend.setup) t.before(() => backend.setup!());
  if (backend.teardown) t.after(() => backend.teardown!());

  t('a read-only open of a missing WebDB fails with a clear message and creates nothing', async () => {
    const store = await backend.fresh();
    try {
      assert.throws(() => store.open({ readonly: true }), (e: Error & { code?: string }) => e.code === 'HZ_ERR_NOT_FOUND' && e.message.includes('no WebDB at'));
      assert.throws(() => store.open(), (e: Error & { code?: string }) => e.code === 'HZ_ERR_NOT_FOUND');
      store.open({ create: true }).close();
      const ro = store.open({ readonly: true });
      assert.is(ro.pageCount(), 0);
      ro.close();
    } finally {
      await store.drop();
    }
  });

  it('inject adds new seeds as unfetched and due now; known ones are counted, or reset with overwrite', (db) => {
    assert.equal(db.inject([seed('http://a.test/', 2, '{"x":"1"}'), seed('http://b.test/')], T0, false), { injected: 2, overwritten: 0, known: 0 });
    assert.equal(db.page('http://a.test/'), {
      url: 'http://a.test/',
      host: 'a.test',
      status: 'db_unfetched',
      fetch_time: T0,
      fetch_interval: 2_592_000,
      retries: 0,
      score: 2,
      link_score: 0,
      signature: null,
      modified_time: 0,
      last_fetch_time: null,
      generate_time: null,
      protocol_status: null,
      etag: null,
      last_modified: null,
      metadata: '{"x":"1"}',
    });
    db.putPage(row('http://b.test/', { score: 7, generate_time: T0 }));
    assert.equal(db.inject([seed('http://b.test/', 3), seed('http://c.test/')], T0 + 5, false), { injected: 1, overwritten: 0, known: 1 });
    assert.is(db.page('http://b.test/')!.score, 7);
    assert.equal(db.inject([seed('http://b.test/', 3, '{"y":"2"}')], T0 + 9, true), { injected: 0, overwritten: 1, known: 0 });
    assert.equal(db.page('http://b.test/'), {
      ...row('http://b.test/'),
      status: 'db_unfetched',
      fetch_time: T0 + 9,
      score: 3,
      metadata: '{"y":"2"}',
      generate_time: null,
      signature: null,
      modified_time: 0,
      etag: null,
      last_modified: null,
    });
    assert.is(db.pageCount(), 3);
  });

  it('dueIfModified makes fetched pages due when the sitemap says they changed since', (db) => {
    db.putPage(row('http://a.test/old', { last_fetch_time: T0 - 10 * DAY, fetch_time: T0 + DAY }));
    db.putPage(row('http://a.test/fresh', { last_fetch_time: T0, fetch_time: T0 + DAY }));
    db.putPage(row('http://a.test/due', { last_fetch_time: T0 - 10 * DAY, fetch_time: T0 - DAY }));
    db.inject([seed('http://a.test/never')], T0 + DAY, false);
    const lastmod = T0 - DAY;
    const n = db.dueIfModified(['old', 'fresh', 'due', 'never', 'unknown'].map((p) => ({ url: `http://a.test/${p}`, lastmod })), T0);
    assert.is(n, 1);
    assert.is(db.page('http://a.test/old')!.fetch_time, T0);
    assert.is(db.page('http://a.test/fresh')!.fetch_time, T0 + DAY);
    assert.is(db.page('http://a.test/due')!.fetch_time, T0 - DAY);
    assert.is(db.page('http://a.test/never')!.fetch_time, T0 + DAY);
  });

  it('generate candidates: due or pulled in, not generated lately, best score first then URL', (db) => {
    db.putPage(row('http://a.test/1', { score: 1, fetch_time: T0 - 1 }));
    db.putPage(row('http://a.test/2', { score: 5, fetch_time: T0 }));
    db.putPage(row('http://a.test/3', { score: 5, fetch_time: T0 - 2 }));
    db.putPage(row('http://a.test/later', { score: 9, fetch_time: T0 + DAY }));
    db.putPage(row('http://a.test/jumped', { score: 0.5, fetch_time: T0 + 100 * DAY }));
    db.putPage(row('http://a.test/generated', { score: 9, fetch_time: T0 - 1, generate_time: T0 - 1000 }));
    db.putPage(row('http://a.test/expired', { score: 0.1, fetch_time: T0 - 1, generate_time: T0 - 8 * DAY }));
    const q = { delayMs: 7 * DAY, now: T0, dueBy: T0, pullIn: T0 + 50 * DAY };
    const urls = (it: Iterable<PageRow>) => [...it].map((r) => r.url);
    assert.equal(urls(db.generateCandidates(q)), ['http://a.test/2', 'http://a.test/3', 'http://a.test/1', 'http://a.test/jumped', 'http://a.test/expired']);
    // Stopping early leaves the WebDB usable.
    let first: PageRow | undefined;
    for (const r of db.generateCandidates(q)) {
      first = r;
      break;
    }
    assert.equal(first, row('http://a.test/2', { score: 5, fetch_time: T0 }), 'whole rows');
    db.transaction(() => db.markGenerated(['http://a.test/2', 'http://a.test/1'], T0 + 10));
    assert.equal(urls(db.generateCandidates({ ...q, now: T0 + 20 })), ['http://a.test/3', 'http://a.test/jumped', 'http://a.test/expired']);
    assert.equal(db.awaitingUpdate(7 * DAY, T0 + 20), { count: 3, last: T0 + 10 });
    assert.equal(db.awaitingUpdate(7 * DAY, T0 + 8 * DAY), { count: 0, last: null });
    assert.is(db.nextDue(7 * DAY, T0 + 20), T0 - 2);
    assert.is(db.nextDue(7 * DAY, T0 + 20 + 7 * DAY), T0 - 2);
  });

  it('an empty WebDB: no candidates, nothing awaiting, nothing due, empty statistics', (db) => {
    assert.equal([...db.generateCandidates({ delayMs: 0, now: T0, dueBy: T0, pullIn: T0 })], []);
    assert.equal(db.awaitingUpdate(DAY, T0), { count: 0, last: null });
    assert.is(db.nextDue(DAY, T0), null);
    assert.equal(db.scoreStats(), { count: 0, min: null, avg: null, max: null });
    assert.equal(db.retryCounts(), []);
    assert.equal(db.statusCounts(), []);
    assert.equal([...db.pages()], []);
    assert.is(db.numberPages(), 0);
    assert.equal([...db.linkEdges({ withNavigation: true })], []);
    assert.equal(db.topScores(10, -Infinity), []);
    assert.is(db.page('http://nowhere.test/'), undefined);
    assert.is(db.pageScore('http://nowhere.test/'), undefined);
  });

  it('updatedb: applied segments are remembered per tool; putPage replaces the whole row', (db) => {
    assert.not.ok(db.isApplied('updatedb', '20240101000000'));
    db.markApplied('updatedb', '20240101000000', T0);
    db.markApplied('updatedb', '20240101000000', T0 + 1);
    assert.ok(db.isApplied('updatedb', '20240101000000'));
    assert.not.ok(db.isApplied('invertlinks', '20240101000000'));
    const r = row('http://a.test/', { score: 1.25, link_score: 0.5 });
    db.putPage(r);
    assert.is(db.pageScore('http://a.test/'), 1.25);
    const r2 = row('http://a.test/', { status: 'db_gone', signature: null, etag: null, metadata: null, retries: 3, score: 0.75 });
    db.transaction(() => db.putPage(r2));
    assert.equal(db.page('http://a.test/'), r2);
    assert.is(db.pageCount(), 1);
  });

  it('pagesOf reads the known rows of many URLs at once, writes of the transaction included', (db) => {
    db.putPage(row('http://a.test/1', { score: 2 }));
    db.inject([seed('http://a.test/2')], T0, false);
    assert.equal(db.pagesOf([]), new Map());
    db.transaction(() => {
      db.putPage(row('http://a.test/3', { score: 3 }));
      const got = db.pagesOf(['http://a.test/3', 'http://a.test/none', 'http://a.test/1', 'http://a.test/2']);
      assert.equal([...got.keys()].sort(), ['http://a.test/1', 'http://a.test/2', 'http://a.test/3']);
      assert.equal(got.get('http://a.test/1'), row('http://a.test/1', { score: 2 }));
      assert.equal(got.get('http://a.test/3'), db.page('http://a.test/3'));
      assert.equal(got.get('http://a.test/2'), db.page('http://a.test/2'));
    });
  });

  it('reads inside a transaction see its writes; a failed transaction leaves nothing', (db) => {
    db.transaction(() => {
      db.putPage(row('http://a.test/1', { score: 2 }));
      assert.is(db.pageScore('http://a.test/1'), 2);
      db.putPage(row('http://a.test/1', { score: 3 }));
      assert.equal(db.page('http://a.test/1')?.score, 3);
      assert.is(db.replaceOutlinks('http://a.test/1', [{ url: 'http://a.test/2', anchor: 'two' }]), 1);
      assert.equal(linksTo(db, 'http://a.test/2'), [{ source: 'http://a.test/1', anchor: 'two', nav: 0 }]);
      db.addInlinks('http://a.test/2', [{ source: 'http://a.test/1', anchor: 'two' }]);
      assert.equal(db.inlinks('http://a.test/2', 'stored'), [{ source: 'http://a.test/1', anchor: 'two' }]);
      db.markApplied('updatedb', 's1', T0);
      assert.ok(db.isApplied('updatedb', 's1'));
    });
    assert.throws(() =>
      db.transaction(() => {
        db.putPage(row('http://a.test/1', { score: 9 }));
        db.putPage(row('http://a.test/9'));
        db.replaceOutlinks('http://a.test/1', []);
        db.clearInlinks('http://a.test/2');
        db.markApplied('updatedb', 's2', T0);
        db.inject([seed('http://x.test/')], T0, false);
        db.numberPages();
        db.setLinkScores([4, 4, 4]);
        throw new Error('boom');
      }),
    );
    assert.is(db.pageScore('http://a.test/1'), 3);
    assert.is(db.page('http://a.test/1')!.link_score, 0);
    assert.is(db.page('http://a.test/9'), undefined);
    assert.is(db.page('http://x.test/'), undefined);
    assert.is(linksTo(db, 'http://a.test/2').length, 1);
    assert.is(db.inlinks('http://a.test/2', 'stored').length, 1);
    assert.not.ok(db.isApplied('updatedb', 's2'));
    // A transaction inside one is part of it.
    db.transaction(() => {
      db.transaction(() => db.putPage(row('http://a.test/n1')));
      assert.throws(() => db.transaction(() => (db.putPage(row('http://a.test/n2')), assert.ok(db.page('http://a.test/n2')), fail())));
    });
    assert.ok(db.page('http://a.test/n1'));
    assert.is(db.page('http://a.test/n2'), undefined, 'the inner failed transaction is undone');
  });

  it('a write the store refuses throws, and the WebDB stays usable; in a transaction, the whole transaction fails', (db) => {
    const bad = { ...row('http://a.test/bad'), host: null as unknown as string };
    assert.throws(() => db.putPage(bad));
    db.putPage(row('http://a.test/ok'));
    assert.is(db.pageCount(), 1);
    assert.throws(() =>
      db.transaction(() => {
        db.putPage(row('http://a.test/x'));
        db.putPage(bad);
      }),
    );
    assert.is(db.page('http://a.test/x'), undefined);
    db.transaction(() => db.putPage(row('http://a.test/y')));
    assert.is(db.pageCount(), 2);
  });

  it('outlinks: replaced per source, duplicates stored once; links to a target list content links first, then in stored order', (db) => {
    const n = db.replaceOutlinks('http://s.test/1', [
      { url: 'http://t.test/', anchor: 'menu', nav: true },
      { url: 'http://t.test/', anchor: 'first' },
      { url: 'http://t.test/', anchor: 'first' },
      { url: 'http://u.test/', anchor: '' },
    ]);
    assert.is(n, 3);
    db.replaceOutlinks('http://s.test/2', [{ url: 'http://t.test/', anchor: 'second' }]);
    assert.equal(linksTo(db, 'http://t.test/'), [
      { source: 'http://s.test/1', anchor: 'first', nav: 0 },
      { source: 'http://s.test/2', anchor: 'second', nav: 0 },
      { source: 'http://s.test/1', anchor: 'menu', nav: 1 },
    ]);
    db.transaction(() => {
      assert.is(db.replaceOutlinks('http://s.test/1', [{ url: 'http://t.test/', anchor: 'again' }]), 1);
      assert.is(db.replaceOutlinks('http://s.test/3', []), 0);
    });
    assert.equal(linksTo(db, 'http://t.test/'), [
      { source: 'http://s.test/2', anchor: 'second', nav: 0 },
      { source: 'http://s.test/1', anchor: 'again', nav: 0 },
    ]);
    assert.equal(linksTo(db, 'http://u.test/'), []);
    assert.equal(
      db.linksToEach(['http://u.test/', 'http://t.test/', 'http://none.test/']),
      new Map([['http://t.test/', [{ source: 'http://s.test/2', anchor: 'second', nav: 0 }, { source: 'http://s.test/1', anchor: 'again', nav: 0 }]]]),
      'linksToEach: the lists of the targets that have links',
    );
    db.transaction(() => {
      db.replaceOutlinks('http://s.test/4', [{ url: 'http://u.test/', anchor: 'new', nav: true }]);
      assert.equal(db.linksToEach(['http://u.test/']).get('http://u.test/'), [{ source: 'http://s.test/4', anchor: 'new', nav: 1 }]);
    });
    assert.equal(linksTo(db, 'http://u.test/'), [{ source: 'http://s.test/4', anchor: 'new', nav: 1 }]);
    assert.is(linksTo(db, 'http://t.test/').length, 2);
  });

  it('outlinks: a page with many links keeps the first of each duplicate and their order, however the rows are grouped', (db) => {
    const links = Array.from({ length: 53 }, (_, i) => ({ url: `http://t.test/${i % 13}`, anchor: `a${i % 3}`, nav: i % 5 === 0 }));
    const kept = new Map<string, { url: string; anchor: string; nav: boolean }>();
    for (const l of links) if (!kept.has(`${l.url} ${l.anchor}`)) kept.set(`${l.url} ${l.anchor}`, l);
    db.transaction(() => {
      db.replaceOutlinks('http://s.test/0', [{ url: 'http://t.test/3', anchor: 'before' }]);
      assert.is(db.replaceOutlinks('http://s.test/1', links), kept.size);
      db.replaceOutlinks('http://s.test/2', [{ url: 'http://t.test/3', anchor: 'after' }]);
    });
    for (let t = 0; t < 13; t++) {
      const target = `http://t.test/${t}`;
      const stored = [
        ...(t === 3 ? [{ source: 'http://s.test/0', anchor: 'before', nav: 0 }] : []),
        ...[...kept.values()].filter((l) => l.url === target).map((l) => ({ source: 'http://s.test/1', anchor: l.anchor, nav: l.nav ? 1 : 0 })),
        ...(t === 3 ? [{ source: 'http://s.test/2', anchor: 'after', nav: 0 }] : []),
      ];
      assert.equal(linksTo(db, target), [...stored.filter((l) => !l.nav), ...stored.filter((l) => l.nav)], target);
    }
  });

  it('stageLinkTargets: what the sources link to now, and what they had inlinks to before, read back in order a page at a time', (db) => {
    db.replaceOutlinks('http://s.test/1', [{ url: 'http://t.test/old', anchor: 'gone now' }]);
    db.addInlinks('http://t.test/old', [{ source: 'http://s.test/1', anchor: 'gone now' }]);
    db.replaceOutlinks('http://s.test/1', [
      { url: 'http://t.test/a', anchor: 'a' },
      { url: 'http://t.test/b', anchor: 'b' },
    ]);
    db.replaceOutlinks('http://s.test/2', [{ url: 'http://t.test/c', anchor: 'c' }]);
    db.addInlinks('http://t.test/other', [{ source: 'http://s.test/9', anchor: 'x' }]);
    assert.is(db.stageLinkTargets(['http://s.test/1', 'http://s.test/1']), 3);
    assert.equal(db.stagedLinkTargets('', 2), ['http://t.test/a', 'http://t.test/b']);
    assert.equal(db.stagedLinkTargets('http://t.test/b', 2), ['http://t.test/old']);
    assert.equal(db.stagedLinkTargets('http://t.test/old', 2), []);
    assert.is(db.stageLinkTargets(new Set(['http://s.test/2', 'http://s.test/none'])), 1);
    assert.equal(db.stagedLinkTargets('', 10), ['http://t.test/c'], 'the last staged targets replace those before');
    assert.is(db.stageLinkTargets([]), 0);
    assert.equal(db.stagedLinkTargets('', 10), []);
  });

  it('stagedLinkTargets: in byte order, whatever the locale of the store', (db) => {
    db.replaceOutlinks('http://s.test/1', [
      { url: 'http://t.test/a', anchor: '' },
      { url: 'http://t.test/B', anchor: '' },
      { url: 'http://t.test/_', anchor: '' },
    ]);
    assert.is(db.stageLinkTargets(['http://s.test/1']), 3);
    assert.equal(db.stagedLinkTargets('', 2), ['http://t.test/B', 'http://t.test/_']);
    assert.equal(db.stagedLinkTargets('http://t.test/_', 2), ['http://t.test/a']);
  });

  it('inlinks: a target\'s inlinks added in calls of any size, read in stored order or by source', (db) => {
    db.transaction(() => {
      assert.is(db.addInlinks('http://t.test/', [{ source: 'http://s.test/b', anchor: 'bee' }]), 1);
      assert.is(
        db.addInlinks('http://t.test/', [
          { source: 'http://s.test/a', anchor: 'ay' },
          { source: 'http://s.test/c', anchor: 'see' },
        ]),
        2,
      );
      db.addInlinks('http://a.test/', [{ source: 'http://s.test/z', anchor: 'zed' }]);
      assert.is(db.addInlinks('http://e.test/', []), 0);
    });
    assert.equal(db.inlinks('http://t.test/', 'stored'), [
      { source: 'http://s.test/b', anchor: 'bee' },
      { source: 'http://s.test/a', anchor: 'ay' },
      { source: 'http://s.test/c', anchor: 'see' },
    ]);
    assert.equal(db.inlinks('http://t.test/', 'source').map((i) => i.source), ['http://s.test/a', 'http://s.test/b', 'http://s.test/c']);
    assert.equal([...db.allInlinks()], [
      { target: 'http://a.test/', source: 'http://s.test/z', anchor: 'zed' },
      { target: 'http://t.test/', source: 'http://s.test/b', anchor: 'bee' },
      { target: 'http://t.test/', source: 'http://s.test/a', anchor: 'ay' },
      { target: 'http://t.test/', source: 'http://s.test/c', anchor: 'see' },
    ]);
    db.transaction(() => {
      db.clearInlinks('http://t.test/');
      db.addInlinks('http://t.test/', [{ source: 'http://s.test/b', anchor: 'bee again' }]);
    });
    assert.equal(db.inlinks('http://t.test/', 'stored'), [{ source: 'http://s.test/b', anchor: 'bee again' }]);
    assert.equal(db.inlinks('http://none.test/', 'source'), []);
    // More rows than one statement takes (rows.ts: 16), in the order given.
    const many = Array.from({ length: 23 }, (_, i) => ({ source: `http://m.test/${String.fromCharCode(122 - i)}`, anchor: `m${i}` }));
    db.transaction(() => assert.is(db.addInlinks('http://m.test/', many), 23));
    assert.equal(db.inlinks('http://m.test/', 'stored'), many);
    assert.equal(db.inlinks('http://m.test/', 'source'), [...many].reverse());
  });

  it('inlinks: an anchor read back as added, whether a link of its source holds it or not, and kept when that source\'s links are replaced', (db) => {
    const added = [
      { source: 'http://s.test/1', anchor: 'first anchor' },
      { source: 'http://s.test/2', anchor: '' },
      { source: 'http://s.test/3', anchor: 'no link' },
    ];
    db.transaction(() => {
      db.replaceOutlinks('http://s.test/1', [
        { url: 'http://t.test/', anchor: '' },
        { url: 'http://t.test/', anchor: 'first anchor' },
        { url: 'http://t.test/', anchor: 'second' },
        { url: 'http://u.test/', anchor: 'a longer anchor' },
      ]);
      db.replaceOutlinks('http://s.test/2', [{ url: 'http://t.test/', anchor: 'menu', nav: true }]);
      db.addInlinks('http://t.test/', added);
      // Cut to db.max.anchor.length: not the link's anchor.
      db.addInlinks('http://u.test/', [{ source: 'http://s.test/1', anchor: 'a longer' }]);
    });
    assert.equal(db.inlinks('http://t.test/', 'stored'), added);
    assert.equal(db.inlinks('http://u.test/', 'stored'), [{ source: 'http://s.test/1', anchor: 'a longer' }]);
    // updatedb re-parses s.test/1: its inlinks keep their anchors until invertlinks rebuilds them.
    db.transaction(() => db.replaceOutlinks('http://s.test/1', [{ url: 'http://t.test/', anchor: 'changed' }]));
    db.transaction(() => db.replaceOutlinks('http://s.test/1', []));
    assert.equal(db.inlinks('http://t.test/', 'stored'), added);
    assert.equal([...db.allInlinks()].filter((i) => i.target === 'http://t.test/'), added.map((i) => ({ target: 'http://t.test/', ...i })));
  });

  it('linkrank: pages numbered by URL whatever the order they were added, link edges with or without navigation, scores set', (db) => {
    db.inject([seed('http://c.test/'), seed('http://a.test/')], T0, false);
    db.putPage(row('http://b.test/'));
    db.putPage(row('http://a.test/', { score: 4 }));
    db.putPage(row('http://B.test/'));
    assert.is(db.numberPages(), 4);
    // By byte order: 'B' (0x42) before 'a'.
    const [B, a, b, c] = [0, 1, 2, 3];
    db.replaceOutlinks('http://a.test/', [
      { url: 'http://b.test/', anchor: 'b' },
      { url: 'http://b.test/', anchor: 'bee' },
      { url: 'http://c.test/', anchor: 'menu', nav: true },
      { url: 'http://unknown.test/', anchor: 'not a page' },
    ]);
    db.replaceOutlinks('http://c.test/', [{ url: 'http://B.test/', anchor: 'B' }]);
    // a → b twice: two links with different anchors (pageRank counts an edge once).
    assert.equal(sorted([...db.linkEdges({ withNavigation: true })]), sorted([[a, b], [a, b], [a, c], [c, B]]));
    assert.equal(sorted([...db.linkEdges({ withNavigation: false })]), sorted([[a, b], [a, b], [c, B]]));
    // c.test was only injected: not fetched, no signature; B.test's host is b.test.
    assert.equal([...db.numberedSites()], [['b.test', 'abc'], ['a.test', 'abc'], ['b.test', 'abc'], ['c.test', null]]);
    db.setLinkScores(new Float64Array([0.5, 0.125, 0, 2.5]));
    assert.is(db.page('http://B.test/')!.link_score, 0.5);
    assert.is(db.page('http://a.test/')!.link_score, 0.125);
    assert.is(db.page('http://b.test/')!.link_score, 0);
    assert.is(db.page('http://c.test/')!.link_score, 2.5);
  });

  it('readdb: counts, statistics by status, host and retries, every page by URL, the top scores', (db) => {
    db.putPage(row('http://b.test/2', { status: 'db_fetched', score: 2, retries: 0 }));
    db.putPage(row('http://a.test/1', { status: 'db_gone', score: 0.5, retries: 2 }));
    db.putPage(row('http://b.test/1', { status: 'db_fetched', score: 4, retries: 0 }));
    db.putPage(row('http://a.test/2', { status: 'db_unfetched', score: 0.5, retries: 1 }));
    db.putPage(row('http://a.test/3', { status: 'db_fetched', score: 1.5, retries: 1 }));
    assert.is(db.pageCount(), 5);
    assert.equal(db.scoreStats(), { count: 5, min: 0.5, avg: 1.7, max: 4 });
    assert.equal(db.retryCounts(), [
      { retries: 0, count: 2 },
      { retries: 1, count: 2 },
      { retries: 2, count: 1 },
    ]);
    assert.equal(sorted(db.statusCounts()), [
      { status: 'db_fetched', count: 3 },
      { status: 'db_gone', count: 1 },
      { status: 'db_unfetched', count: 1 },
    ]);
    assert.equal(db.statusHostCounts(), [
      { status: 'db_fetched', host: 'a.test', count: 1 },
      { status: 'db_fetched', host: 'b.test', count: 2 },
      { status: 'db_gone', host: 'a.test', count: 1 },
      { status: 'db_unfetched', host: 'a.test', count: 1 },
    ]);
    assert.equal([...db.pages()].map((p) => p.url), ['http://a.test/1', 'http://a.test/2', 'http://a.test/3', 'http://b.test/1', 'http://b.test/2']);
    assert.equal([...db.pages()][3], row('http://b.test/1', { status: 'db_fetched', score: 4, retries: 0 }));
    assert.equal(db.topScores(3, -Infinity), [
      { url: 'http://b.test/1', score: 4 },
      { url: 'http://b.test/2', score: 2 },
      { url: 'http://a.test/3', score: 1.5 },
    ]);
    assert.equal(db.topScores(10, 1.5).map((s) => s.url), ['http://b.test/1', 'http://b.test/2', 'http://a.test/3']);
    assert.equal(db.topScores(10, 0.5).slice(3), [
      { url: 'http://a.test/1', score: 0.5 },
      { url: 'http://a.test/2', score: 0.5 },
    ]);
  });

  it('a long iteration reads every row, in order, while other reads run between its rows', (db) => {
    const N = 2500;
    db.inject(
      Array.from({ length: N }, (_, i) => seed(`http://h${i % 7}.test/p${String(i).padStart(5, '0')}`, (i % 13) / 4)),
      T0,
      false,
    );
    let n = 0;
    let last = '';
    for (const p of db.pages()) {
      assert.ok(p.url > last, 'by URL');
      last = p.url;
      if (n++ % 500 === 0) assert.is(db.page(p.url)?.url, p.url);
    }
    assert.is(n, N);
    const scores = [...db.generateCandidates({ delayMs: 0, now: T0, dueBy: T0, pullIn: T0 + DAY })].map((r) => r.score);
    assert.is(scores.length, N);
    assert.ok(scores.every((s, i) => i === 0 || scores[i - 1]! >= s));
    assert.is(db.numberPages(), N);
  });

  it('hosts: robots.txt cached per host and replaced; whether a seed is on loopback', (db) => {
    assert.is(db.robots('http://a.test'), undefined);
    const r = { status: 'parsed', txt: 'User-agent: *\nDisallow: /x', fetched: T0, failures: 0, crawlDelay: 1.5 };
    db.putRobots('http://a.test', r);
    assert.equal(db.robots('http://a.test'), r);
    const r2 = { status: 'allow_all', txt: null, fetched: T0 + 1, failures: 2, crawlDelay: null };
    db.putRobots('http://a.test', r2);
    assert.equal(db.robots('http://a.test'), r2);
    assert.not.ok(db.seedsOnLoopback());
    db.markSeedsOnLoopback();
    db.markSeedsOnLoopback();
    assert.ok(db.seedsOnLoopback());
  });

  it('a second open sees what the first committed; a read-only open reads it', async (db, store) => {
    db.inject([seed('http://a.test/')], T0, false);
    db.markSeedsOnLoopback();
    const ro = store.open({ readonly: true });
    try {
      assert.is(ro.pageCount(), 1);
      assert.ok(ro.seedsOnLoopback());
      assert.equal(ro.page('http://a.test/')?.status, 'db_unfetched');
    } finally {
      ro.close();
    }
    const again = store.open({ create: true });
    try {
      assert.is(again.pageCount(), 1, 'opening with create keeps what is there');
    } finally {
      again.close();
    }
  });

  partitionCases(t, async () => {
    const store = await backend.fresh();
    const a = store.open({ create: true });
    const b = store.open();
    return {
      a,
      b,
      done: async () => {
        a.close();
        b.close();
        await store.drop();
      },
    };
  });

  t.run();
}

function fail(): never {
  throw new Error('inner failure');
}

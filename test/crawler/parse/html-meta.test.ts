import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { emptyHead, readMeta, type HtmlHead } from '../../../crawler/parse/html-meta.js';
import { Outlinks } from '../../../crawler/parse/html-outlinks.js';
import { relsOf } from '../../../crawler/parse/html-elements.js';

test('readMeta: each meta element, and the first of each kind counts', () => {
  const cases: [Record<string, string>[], Partial<HtmlHead>][] = [
    [[{ name: 'robots', content: 'noindex, nofollow' }], { noindex: true, nofollow: true }],
    [[{ name: 'ROBOTS', content: 'none' }], { noindex: true, nofollow: true }],
    [[{ name: 'robots', content: 'noarchive' }, { name: 'robots', content: 'no-cache' }], { noarchive: true }],
    [[{ name: 'robots', content: 'index follow' }], {}],
    [[{ name: 'description', content: '  two\n  lines ' }, { name: 'description', content: 'second' }], { description: 'two lines' }],
    [[{ name: 'keywords', content: 'a,  b' }], { keywords: 'a, b' }],
    [[{ 'http-equiv': 'Refresh', content: '5; url=/next' }], { refresh: { href: '/next', delay: 5 } }],
    [[{ 'http-equiv': 'refresh', content: '0' }], { refresh: null }],
    [[{ 'http-equiv': 'content-language', content: ' de ' }], { contentLanguage: 'de' }],
    [[{ 'http-equiv': 'content-language', content: ' ' }], { contentLanguage: null }],
    [[{ charset: 'utf-8' }], {}],
  ];
  for (const [metas, want] of cases) {
    const head = emptyHead();
    for (const a of metas) readMeta(head, a);
    assert.equal(head, { ...emptyHead(), ...want }, JSON.stringify(metas));
  }
});

test('relsOf: the rel words, lower-cased; none without rel', () => {
  assert.equal(relsOf({}), []);
  assert.equal(relsOf({ rel: 'NoFollow  Canonical' }), ['nofollow', 'canonical']);
});

test('Outlinks: anchors with their text and images, areas, frames, followed relations; nofollow dropped', () => {
  const o = new Outlinks();
  o.openAnchor({ href: ' /a ' }, 3, false);
  o.addText('Read ');
  o.image({ alt: 'the manual' });
  o.close(4);
  o.addText(' now');
  o.close(3);
  o.openAnchor({ href: '/hidden', rel: 'nofollow' }, 3, false);
  o.addText('skipped');
  o.close(3);
  o.openAnchor({ href: '#intro' }, 3, true);
  assert.ok(o.isPermalinkMark(' ¶ '));
  assert.not.ok(o.isPermalinkMark('Intro'));
  o.openAnchor({ href: '/next-opened' }, 3, true);
  o.area({ href: '/map', alt: 'Map' }, false);
  o.area({ href: '/map-nofollow', rel: 'nofollow' }, false);
  o.frame({ src: '/frame' }, false);
  o.frame({ src: '  ' }, false);
  o.related({ href: '/p2' }, relsOf({ rel: 'next' }), false);
  o.related({ href: '/s.css' }, relsOf({ rel: 'stylesheet alternate' }), false);
  o.finish();
  assert.equal(o.list, [
    { href: '/a', anchor: 'Read the manual now', nav: false },
    { href: '#intro', anchor: '', nav: true },
    { href: '/map', anchor: 'Map', nav: false },
    { href: '/frame', anchor: '', nav: false },
    { href: '/p2', anchor: '', nav: false },
    { href: '/next-opened', anchor: '', nav: true },
  ]);
  assert.not.ok(o.inAnchor);
});

test.run();

/** Pages and queries on which every way of finding a summary's words must give the summary of the whole text. */
import type { SummaryOptions } from '../../searcher/summary.js';

export const filler = (n: number, seed = 0) => Array.from({ length: n }, (_, i) => `w${(i * 7 + seed) % 53}`).join(' ');
export const long = (words: string[], gap = 40) => words.map((w, i) => `${filler(gap, i)} ${w}`).join(' ') + ' ' + filler(gap);

export type Page = { text: string; furniture?: [number, number][]; sections?: number[] };
const page = (text: string, extra: Omit<Page, 'text'> = {}): Page => ({ text, ...extra });
const nav = 'Home Docs Download Support Contact ' + filler(60, 3);
const withNav = `${nav}\n${long(['indexing', 'policies'])}\n${nav}`;

export const SUMMARY_CASES: [name: string, p: Page, query: string, opts: SummaryOptions][] = [
  ['no hit: the start of the page', page(long(['alpha', 'beta'])), 'zebra', { context: 5, length: 30 }],
  ['no hit on a short page', page('one two three'), 'zebra', { context: 5, length: 30 }],
  ['one hit far into the page', page(long(['vacuum'], 500)), 'vacuum', { context: 5, length: 30 }],
  ['hits far apart give two windows', page(long(['vacuum', 'journal'], 300)), 'vacuum journal', { context: 3, length: 20 }],
  ['dense hits merge', page(filler(50) + ' create index on t create unique index i ' + filler(50)), 'create index', { context: 5, length: 30 }],
  ['stems: policy finds policies, indexing finds index', page(long(['policies', 'Policy', 'indexing', 'indexes'])), 'policy index', { context: 5, length: 30 }],
  ['stems that rewrite their end: happy, happiness, any', page(long(['happiness', 'happily', 'any', 'sensibility'])), 'happy any sensible', { context: 2, length: 20 }],
  ['a one-letter prefix joins its word: e-mail', page(long(['e-mail', 'E-Mail', 'email'])), 'email', { context: 3, length: 30 }],
  ["apostrophes inside a word: o'clock, don’t, ma'am", page(long(["o'clock", 'don’t', "ma'am", "crawler's"])), 'oclock dont maam crawler', { context: 2, length: 40 }],
  ['folded letters: Café, ﬁle, ＦＵＬＬ, Ærø', page(long(['Café', 'ﬁle', 'ＦＵＬＬ', 'Ærø'])), 'cafe file full aero', { context: 2, length: 40 }],
  ['case: CREATE, Index', page(long(['CREATE', 'Index'])), 'create index', { context: 2, length: 20 }],
  ['furniture: never shown, the head starts after it', page(withNav, { furniture: [[0, nav.length], [withNav.length - nav.length, withNav.length]] }), 'zebra', { context: 5, length: 30 }],
  ['furniture: a hit inside it is skipped', page(withNav, { furniture: [[0, nav.length]] }), 'download indexing', { context: 5, length: 30 }],
  ['sections cut windows', page(long(['vacuum', 'journal'], 3), { sections: [0, 20] }), 'vacuum journal', { context: 5, length: 30 }],
  ['a query word in a long run of non-space', page(filler(20) + ' ' + 'x'.repeat(300) + 'vacuum.' + 'y'.repeat(10) + ' vacuum ' + filler(20)), 'vacuum', { context: 3, length: 20 }],
  ['numbers and words with digits', page(long(['3.14', 'sha256', '1,000'])), '3.14 sha256 1,000', { context: 2, length: 30 }],
  ['a word at both ends of the text', page('vacuum ' + filler(100) + ' vacuum'), 'vacuum', { context: 4, length: 30 }],
];


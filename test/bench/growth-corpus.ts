/**
 * Documentation-like pages for the index growth benchmark, made from a seed
 * alone so every size is the same web cut longer: a Zipfian vocabulary of
 * 120,000 words (the commonest short, as in English), pages of 4–10
 * sections under headings, each of 2–5 paragraphs of sentences, and about
 * 15 links with anchor text, most to pages of the same host. A page is
 * about 1,200 words (8 KB of text, 11 KB of HTML).
 */
import { rng } from '../fixtures/rng.js';

export const VOCABULARY = 120_000;
export const HOSTS = 100;

const ONSETS = ['b', 'c', 'd', 'f', 'g', 'h', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'w', 'st', 'tr', 'pl', 'gr', 'ch', 'sh', 'br', 'cl'];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'ou', 'io', 'y'];
const CODAS = ['', 'n', 'r', 's', 't', 'l', 'm', 'x', 'nd', 'st', 'ck', 'ng'];

/** Word `rank` of the vocabulary: distinct for every rank, longer the rarer. */
export function word(rank: number): string {
  let w = '';
  let x = rank;
  do {
    w += ONSETS[x % ONSETS.length]! + VOWELS[Math.floor(x / ONSETS.length) % VOWELS.length]!;
    x = Math.floor(x / (ONSETS.length * VOWELS.length));
  } while (x > 0);
  return w + CODAS[rank % CODAS.length]!;
}

const WORDS = Array.from({ length: VOCABULARY }, (_, r) => word(r));
const LOG_V = Math.log(VOCABULARY + 1);

export interface GrowthPage {
  url: string;
  host: string;
  title: string;
  text: string;
  html: string;
  sections: { heading: string; level: number; offset: number }[];
  links: { url: string; anchor: string }[];
}

export const pageUrl = (i: number) => `http://h${i % HOSTS}.growth.test/docs/${Math.floor(i / HOSTS) % 50}/page-${i}.html`;

/** Page `i` of a web of `n` pages. */
export function page(i: number, n: number): GrowthPage {
  const rand = rng(1_000_003 + i * 7919);
  // Zipf with exponent 1: rank r with probability about 1/(r+1).
  const w = () => WORDS[Math.min(VOCABULARY - 1, Math.floor(Math.exp(rand() * LOG_V)) - 1)]!;
  const words = (k: number) => {
    let s = w();
    for (let j = 1; j < k; j++) s += ' ' + w();
    return s;
  };
  const between = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const title = words(between(3, 8));
  const url = pageUrl(i);
  let text = title + '\n';
  let html = `<!doctype html><html lang="en"><head><title>${title}</title></head><body><h1>${title}</h1>`;
  const sections: GrowthPage['sections'] = [];
  for (let s = between(4, 10); s > 0; s--) {
    const heading = words(between(2, 5));
    sections.push({ heading, level: 2, offset: text.length });
    text += heading + '\n';
    html += `<h2>${heading}</h2>`;
    for (let p = between(2, 5); p > 0; p--) {
      let para = '';
      for (let k = between(2, 6); k > 0; k--) {
        const sentence = words(between(6, 18));
        para += (para ? ' ' : '') + sentence[0]!.toUpperCase() + sentence.slice(1) + '.';
      }
      text += para + '\n';
      html += `<p>${para}</p>`;
    }
  }
  const links: GrowthPage['links'] = [];
  for (let k = between(10, 20); k > 0; k--) {
    // Most links stay on the host: page i's host neighbours are i ± HOSTS·m.
    const j = rand() < 0.8 ? (i + HOSTS * between(1, 40)) % n : between(0, n - 1);
    const anchor = words(between(1, 3));
    links.push({ url: pageUrl(j), anchor });
    html += `<a href="${pageUrl(j)}">${anchor}</a> `;
  }
  html += '</body></html>';
  return { url, host: `h${i % HOSTS}.growth.test`, title, text, html, sections, links };
}

/** Words by rank, for queries: the commonest first. */
export const wordOfRank = (r: number) => WORDS[r]!;

/**
 * The judged corpus: about 250 pages on four hosts — product docs, an IT/HR
 * wiki, an engineering handbook and a busy news blog — with the structure
 * that makes ranking hard: navigation hubs and a glossary that mention
 * everything, exact duplicates (print views), near-duplicates (archived
 * older versions), anchor-rich links between pages and many news posts that
 * use the query words in passing. Deterministic: the same pages every run.
 *
 * URLs are built from a `base(host)` function so the same corpus can be
 * indexed directly (`http://docs.judged.test`, …) or served by a test web on
 * loopback addresses.
 */
import crypto from 'node:crypto';
import { rng } from '../fixtures/rng.js';
import { HOST_NAMES, TOPICS, type Topic } from './topics.js';

export type JudgedHost = Topic['host'] | 'news';
export const JUDGED_HOSTS: JudgedHost[] = ['docs', 'wiki', 'handbook', 'news'];

export interface JudgedLink {
  host: JudgedHost;
  path: string;
  anchor: string;
}

export interface JudgedPage {
  host: JudgedHost;
  path: string;
  /** The title as served, site-wide suffix included. */
  title: string;
  body: string;
  links: JudgedLink[];
  /** Fetch time, ms: archived copies are older. */
  fetchTime: number;
}

export const DEFAULT_BASE = (h: JudgedHost) => `http://${h}.judged.test`;

const FETCHED = Date.UTC(2024, 4, 1);
const DAY = 86_400_000;

const topicPath = (t: Topic) => `/${t.slug}`;
const suffixed = (t: Topic) => `${t.title} — ${HOST_NAMES[t.host]}`;
const homeLink = (h: Topic['host']): JudgedLink => ({ host: h, path: '/', anchor: HOST_NAMES[h] });

function topicPages(): JudgedPage[] {
  return TOPICS.map((t) => ({
    host: t.host,
    path: topicPath(t),
    title: suffixed(t),
    body: t.body,
    links: [homeLink(t.host), ...(t.related ?? []).map((slug) => ({ host: t.host, path: `/${slug}`, anchor: TOPICS.find((x) => x.slug === slug && x.host === t.host)!.title }))],
    fetchTime: FETCHED,
  }));
}

/** Each host's home page and a glossary: every topic linked, one line each — the classic hub distractor. */
function hubPages(): JudgedPage[] {
  const out: JudgedPage[] = [];
  for (const h of ['docs', 'wiki', 'handbook'] as const) {
    const mine = TOPICS.filter((t) => t.host === h);
    out.push({
      host: h,
      path: '/',
      title: HOST_NAMES[h],
      body: `Welcome to the ${HOST_NAMES[h]}. Pages: ${mine.map((t) => t.title).join('. ')}.`,
      links: mine.map((t) => ({ host: h, path: topicPath(t), anchor: t.title })),
      fetchTime: FETCHED,
    });
    out.push({
      host: h,
      path: '/glossary',
      title: `Glossary — ${HOST_NAMES[h]}`,
      body: mine.map((t) => `${t.title}: ${t.body.split('. ')[0]}.`).join(' '),
      links: mine.map((t) => ({ host: h, path: topicPath(t), anchor: t.title.toLowerCase() })),
      fetchTime: FETCHED,
    });
  }
  return out;
}

/** Print views: identical text at a second URL (dedup must keep one). */
function printCopies(): JudgedPage[] {
  return TOPICS.filter((_, i) => i % 5 === 0).map((t) => ({
    host: t.host,
    path: `/print${topicPath(t)}`,
    title: suffixed(t),
    body: t.body,
    links: [],
    fetchTime: FETCHED,
  }));
}

/** Archived older versions: the same subject with an outdated detail. */
function archivedCopies(): JudgedPage[] {
  return TOPICS.filter((_, i) => i % 7 === 3).map((t) => {
    const sentences = t.body.split('. ');
    sentences[1] = 'This page describes a previous version and is kept for reference only';
    return {
      host: t.host,
      path: `/archive${topicPath(t)}-2021`,
      title: `${t.title} (2021, archived) — ${HOST_NAMES[t.host]}`,
      body: sentences.join('. '),
      links: [{ host: t.host, path: topicPath(t), anchor: `current version of ${t.title.toLowerCase()}` }],
      fetchTime: FETCHED - 900 * DAY,
    };
  });
}

const NEWS_SUBJECTS = [
  'the new office kitchen', 'the summer party', 'our quarterly results', 'the charity run', 'the mentoring programme', 'the customer conference',
  'the move to the fifth floor', 'the hackathon', 'the new coffee machines', 'the sustainability report', 'the team offsite', 'the annual survey',
  'the printer upgrade', 'the security awareness week', 'the holiday schedule', 'the new pension provider', 'the canteen menu', 'the book club',
];
const NEWS_SENTENCES = [
  'Thanks to everyone who helped with {s}; it went better than any of us expected.',
  'Several people asked about {s} at the last all-hands meeting, so here is a short summary.',
  'The organisers of {s} are looking for volunteers from every department.',
  'If you missed {s}, the slides and a recording are on the team site.',
  'We will share more about {s} in next week\'s newsletter.',
  'Remember that the service desk is busy on Monday mornings, so plan requests for later in the week.',
  'A reminder: book your vacation early if you want days off around the public holidays.',
  'The security team says phishing attempts go up before every holiday season, so stay alert.',
  'Our deploy pipeline was faster this quarter, and the on-call rotation had a quiet month.',
  'The facilities team will test the fire alarms on Thursday at 10:00.',
  'Parking in the garage is limited next week because of the painting work.',
  'Guests attending {s} will receive a wireless voucher at reception.',
  'The finance team asks that expense claims from the spring trips are submitted this month.',
  'Lantern, our log shipper, now runs on every production server.',
  'The new laptops for the design team have arrived and will be handed out on Friday.',
  'Meeting rooms on the third floor are closed for renovation until the end of the month.',
  'Remember to lock your screen when you leave your desk, even for a minute.',
  'Photos from {s} are in the shared album; ask the communications team for access.',
];
const NEWS_TITLES = ['Update on {s}', 'News about {s}', 'A look back at {s}', 'Coming soon: {s}', 'What we learned from {s}', 'Quick note on {s}'];

function newsPages(count: number): JudgedPage[] {
  const rand = rng(20240501);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  const out: JudgedPage[] = [];
  for (let i = 0; i < count; i++) {
    const s = pick(NEWS_SUBJECTS);
    const n = 4 + Math.floor(rand() * 5);
    const body = Array.from({ length: n }, () => pick(NEWS_SENTENCES).replaceAll('{s}', s)).join(' ');
    const t = pick(TOPICS);
    out.push({
      host: 'news',
      path: `/${2023 + Math.floor(i / 100)}/post-${i}`,
      title: `${pick(NEWS_TITLES).replaceAll('{s}', s).replace(/^./, (c) => c.toUpperCase())} | Company News`,
      body,
      // Navigation and "read more" links: weak anchors, the kind that should barely move ranking.
      links: [
        { host: 'news', path: '/', anchor: 'Company News' },
        { host: t.host, path: topicPath(t), anchor: pick(['read more', 'details', 'see the wiki', 'more information', 'here']) },
      ],
      fetchTime: FETCHED - Math.floor(rand() * 300) * DAY,
    });
  }
  const home: JudgedPage = {
    host: 'news',
    path: '/',
    title: 'Company News',
    body: 'The latest news from around the company: events, office updates and announcements.',
    links: out.slice(0, 40).map((p) => ({ host: 'news', path: p.path, anchor: p.title.replace(/ \| Company News$/, '') })),
    fetchTime: FETCHED,
  };
  return [home, ...out];
}

/** Every page of the judged corpus. */
export function judgedPages(): JudgedPage[] {
  return [...topicPages(), ...hubPages(), ...printCopies(), ...archivedCopies(), ...newsPages(180)];
}

export const pageUrl = (p: { host: JudgedHost; path: string }, base = DEFAULT_BASE) => base(p.host) + p.path;
export const digestOf = (body: string) => crypto.createHash('md5').update(body).digest('hex');

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The page as HTML, for a test web serving the corpus to a real crawl. Links
 * to a home page are the site's navigation (in `<nav>`); the others — related
 * pages, "read more", "current version of …", a hub's list — are in the text.
 */
export function judgedHtml(p: JudgedPage, base = DEFAULT_BASE): string {
  const list = (ls: JudgedLink[]) => (ls.length ? `<ul>${ls.map((l) => `<li><a href="${esc(pageUrl(l, base))}">${esc(l.anchor)}</a></li>`).join('')}</ul>` : '');
  const nav = p.links.filter((l) => l.path === '/');
  const inText = p.links.filter((l) => l.path !== '/');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(p.title)}</title></head><body><nav>${list(nav)}</nav><main><h1>${esc(p.title.split(/ [—|] /)[0]!)}</h1><p>${esc(p.body)}</p>${list(inText)}</main></body></html>`;
}

/** Inlinks of every page: source URL and anchor, as the WebDB's inlinks table would hold them. */
export function judgedInlinks(pages: JudgedPage[], base = DEFAULT_BASE): Map<string, { source: string; anchor: string }[]> {
  const out = new Map<string, { source: string; anchor: string }[]>();
  for (const p of pages)
    for (const l of p.links) {
      const target = pageUrl(l, base);
      const list = out.get(target) ?? [];
      list.push({ source: pageUrl(p, base), anchor: l.anchor });
      out.set(target, list);
    }
  return out;
}

/**
 * @module crawler/fetch/robots
 * robots.txt per RFC 9309, with robots-parser (longest match, Allow wins
 * ties, `*` and `$`) doing the parsing. What the fetch status of robots.txt
 * means is ours (RFC §2.3.1): 2xx is parsed (first 500 KiB), 3xx is followed
 * up to 5 hops, 4xx allows all, 5xx / 429 / network errors disallow all and
 * are retried in a later cycle. Rules are kept per origin in the WebDB hosts
 * table for at most 24 hours (RFC §2.4) — Nutch cached them per host name
 * forever, for every scheme and port alike.
 */
import { createRequire } from 'node:module';
import type { WebDb } from '../webdb/webdb.js';
import { ProtocolFailure } from '../../shared/plugin/protocol-failure.js';
import type { Protocol } from '../../shared/plugin/extension-points.js';

/** RFC 9309 §2.5: a crawler must parse at least 500 KiB; what follows is ignored. */
export const ROBOTS_MAX_BYTES = 500 * 1024;
/** RFC 9309 §2.3.1.2: follow at least five consecutive redirects, then treat the file as unavailable. */
export const ROBOTS_MAX_REDIRECTS = 5;
/** RFC 9309 §2.4: a cached robots.txt is used for at most 24 hours. */
export const ROBOTS_MAX_AGE_MS = 24 * 3600 * 1000;

interface Robot {
  isAllowed(url: string, ua?: string): boolean | undefined;
  getCrawlDelay(ua?: string): number | undefined;
  getSitemaps(): string[];
}
// Its .d.ts says `export default` while the module is CommonJS (reference libraries.md §2).
const robotsParser = createRequire(import.meta.url)('robots-parser') as (url: string, txt: string) => Robot;

export type RobotsStatus = 'parsed' | 'allow_all' | 'disallow_all';

/** What is known about one origin's robots.txt; this is what the hosts table stores. */
export interface RobotsState {
  status: RobotsStatus;
  /** Body (first 500 KiB) when parsed. */
  txt: string | null;
  fetched: number;
  /** Consecutive unreachable answers. */
  failures: number;
  /** Why, for logs: "HTTP 404", "timeout", … */
  reason: string;
}

/** The RFC 9309 meaning of a final robots.txt answer (after redirects). Pure. */
export function robotsStateFor(
  answer: { status: number; body: string } | { error: string } | { unavailable: string },
  now: number,
  previousFailures = 0,
): RobotsState {
  if ('error' in answer) return { status: 'disallow_all', txt: null, fetched: now, failures: previousFailures + 1, reason: answer.error };
  // No robots.txt was reached (§2.3.1.2): as unavailable as a 404.
  if ('unavailable' in answer) return { status: 'allow_all', txt: null, fetched: now, failures: 0, reason: answer.unavailable };
  const s = answer.status;
  if (s >= 200 && s < 300) return { status: 'parsed', txt: answer.body, fetched: now, failures: 0, reason: `HTTP ${s}` };
  // Google and most crawlers treat 429 like 5xx: the server is overloaded, not saying "no file".
  if (s === 429 || s >= 500)
    return { status: 'disallow_all', txt: null, fetched: now, failures: previousFailures + 1, reason: `HTTP ${s}` };
  return { status: 'allow_all', txt: null, fetched: now, failures: 0, reason: `HTTP ${s}` };
}

/** Whether a cached state may be used at `now`: unreachable answers are never reused across runs. */
export function isFresh(state: RobotsState, now: number, maxAgeMs = ROBOTS_MAX_AGE_MS): boolean {
  return state.status !== 'disallow_all' && now - state.fetched < maxAgeMs;
}

export interface RobotRules {
  readonly state: RobotsState;
  allowed(url: string): boolean;
  /** Crawl-delay for our agent, in ms, or undefined. */
  readonly crawlDelayMs: number | undefined;
  /** The file's `Sitemap:` lines (they apply to every agent). */
  readonly sitemaps: string[];
}

/**
 * The product token to match groups with: the first of `agents` (in
 * precedence order) that the file names in a User-agent line; robots-parser
 * falls back to `*` for a token with no group of its own.
 */
export function chooseAgent(txt: string, agents: string[]): string {
  const named = new Set<string>();
  for (const m of txt.matchAll(/^\s*user-agent\s*:\s*([^\s#]+)/gim)) named.add(m[1]!.split('/')[0]!.toLowerCase());
  return agents.find((a) => named.has(a.toLowerCase())) ?? agents[0] ?? '*';
}

export function rulesFor(origin: string, state: RobotsState, agents: string[]): RobotRules {
  if (state.status !== 'parsed' || state.txt === null) {
    const allow = state.status === 'allow_all';
    return { state, allowed: () => allow, crawlDelayMs: undefined, sitemaps: [] };
  }
  const robot = robotsParser(`${origin}/robots.txt`, state.txt);
  const agent = chooseAgent(state.txt, agents);
  const delay = robot.getCrawlDelay(agent);
  return {
    state,
    // isAllowed is undefined for another origin; rules never leak across origins.
    allowed: (url) => robot.isAllowed(url, agent) === true,
    crawlDelayMs: delay !== undefined && Number.isFinite(delay) && delay >= 0 ? delay * 1000 : undefined,
    sitemaps: robot.getSitemaps(),
  };
}

/** What fetches robots.txt: the protocol plugins. */
export type RobotsTransport = Pick<Protocol, 'get'>;

/** robots.txt is an HTTP convention (RFC 9309); a file: or other URL has none to obey. */
export function hasRobotsTxt(url: string): boolean {
  return /^https?:/i.test(url);
}

/** Fetches robots.txt for an origin, following redirects by hand, and says what it means. */
export async function fetchRobots(http: RobotsTransport, origin: string, now: () => number, previousFailures = 0): Promise<RobotsState> {
  let url = `${origin}/robots.txt`;
  for (let hop = 0; hop <= ROBOTS_MAX_REDIRECTS; hop++) {
    let res;
    try {
      res = await http.get({ url, limit: ROBOTS_MAX_BYTES });
    } catch (e) {
      const msg = e instanceof ProtocolFailure ? e.message : String(e);
      return robotsStateFor({ error: msg }, now(), previousFailures);
    }
    const loc = res.headers.location;
    if (res.status >= 300 && res.status < 400 && loc) {
      const next = URL.canParse(loc, url) ? new URL(loc, url).href : null;
      // A robots.txt is an HTTP resource: a redirect elsewhere (file:, ftp:, no URL at all) reaches none.
      if (!next || !hasRobotsTxt(next)) return robotsStateFor({ unavailable: `${url} redirects to ${JSON.stringify(loc.slice(0, 200))}, not an http(s) URL` }, now());
      url = next;
      continue;
    }
    return robotsStateFor({ status: res.status, body: res.body.toString('utf8') }, now(), previousFailures);
  }
  return robotsStateFor({ unavailable: `more than ${ROBOTS_MAX_REDIRECTS} redirects` }, now());
}

/** Robots rules per origin: memory first, then the WebDB hosts table (when there is one), then the network. */
export class RobotsCache {
  private readonly memo = new Map<string, RobotRules>();
  private readonly pending = new Map<string, Promise<RobotRules>>();
  private readonly load?: (origin: string) => (RobotsState & { row: true }) | undefined;
  private readonly save?: (origin: string, s: RobotsState) => void;

  constructor(
    private readonly opts: { http: RobotsTransport; agents: string[]; webdb?: WebDb; now?: () => number; maxAgeMs?: number },
  ) {
    const db = opts.webdb;
    if (db) {
      this.load = (origin) => {
        const r = db.robots(origin);
        return r && { status: r.status as RobotsStatus, txt: r.txt, fetched: r.fetched, failures: r.failures, reason: 'cached', row: true };
      };
      this.save = (origin, s) => {
        const delay = rulesFor(origin, s, opts.agents).crawlDelayMs;
        db.putRobots(origin, { status: s.status, txt: s.txt, fetched: s.fetched, failures: s.failures, crawlDelay: delay === undefined ? null : delay / 1000 });
      };
    }
  }

  /** Rules already known for an origin in this run, without fetching. */
  known(origin: string): RobotRules | undefined {
    return this.memo.get(origin);
  }

  /** The rules for an origin, fetching robots.txt at most once per run. */
  get(origin: string): Promise<RobotRules> {
    const have = this.memo.get(origin);
    if (have) return Promise.resolve(have);
    let p = this.pending.get(origin);
    if (!p) {
      p = this.resolve(origin).finally(() => this.pending.delete(origin));
      this.pending.set(origin, p);
    }
    return p;
  }

  private async resolve(origin: string): Promise<RobotRules> {
    const now = this.opts.now ?? Date.now;
    const cached = this.load?.(origin);
    let state: RobotsState;
    if (cached && isFresh(cached, now(), this.opts.maxAgeMs)) state = cached;
    else {
      state = await fetchRobots(this.opts.http, origin, now, cached?.failures ?? 0);
      this.save?.(origin, state);
    }
    const rules = rulesFor(origin, state, this.opts.agents);
    this.memo.set(origin, rules);
    return rules;
  }
}

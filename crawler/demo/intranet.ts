/**
 * @module crawler/demo/intranet
 * The demo web: an invented company intranet (Kestrel Labs) on four hosts.
 * Pages are written with links to `http://<name>` (e.g. `http://wiki.kestrel.test`);
 * the demo server rewrites those origins to the loopback address and port each
 * host really listens on, so the files stay readable and the links stay true.
 * The deliberate oddities a crawler must cope with are listed here, in one
 * place, because the demo server, the tests and the runner's example queries
 * all rely on them.
 */

export interface DemoHost {
  /** Short key used in the authoring sources (`wiki:/runbooks/x.html`). */
  key: string;
  /** The invented host name; its origin is what the pages link to. */
  name: string;
  title: string;
  /** Paths robots.txt disallows for every agent. */
  disallow: string[];
}

export const DEMO_HOSTS: DemoHost[] = [
  { key: 'handbook', name: 'handbook.kestrel.test', title: 'Kestrel Handbook', disallow: [] },
  { key: 'wiki', name: 'wiki.kestrel.test', title: 'Kestrel Engineering Wiki', disallow: ['/drafts/'] },
  { key: 'docs', name: 'docs.kestrel.test', title: 'Relay Documentation', disallow: [] },
  { key: 'news', name: 'news.kestrel.test', title: 'Kestrel News', disallow: [] },
];

/** The origin written in the page files for a host. */
export function authoredOrigin(host: DemoHost): string {
  return `http://${host.name}`;
}

/** Old URLs that answer with a permanent redirect, per host key. */
export const DEMO_REDIRECTS: Record<string, Record<string, string>> = {
  handbook: { '/holidays.html': '/leave/public-holidays.html' },
  docs: { '/api.html': '/api/index.html' },
};

/** Links that are broken on purpose (a removed page an old wiki page still points to). */
export const DEMO_BROKEN_LINKS = ['http://wiki.kestrel.test/legacy/jenkins-setup.html'];

/**
 * Crawl depth that reaches every allowed page from the home pages (each host
 * has a site map one click from its home page); a test checks it.
 */
export const DEMO_DEPTH = 4;

/** A word that only appears on pages robots.txt disallows: searching it must find nothing. */
export const DEMO_ROBOTS_ONLY_WORD = 'nightjar';

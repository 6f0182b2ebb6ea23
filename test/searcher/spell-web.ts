/**
 * A small documentation web for "did you mean" and type-ahead: six sites
 * written like devweb's pages (a sidebar, a title, headings with ids,
 * paragraphs), each holding a right word beside a commoner wrong
 * neighbour (asyncio beside async, window beside Windows, jsonify beside
 * json), served on loopback and crawled by `hazelnut crawl`, so the index
 * is the one a user's crawl would leave.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTestWeb, type TestWeb } from '../fixtures/testweb.js';
import { hz, tempConf } from '../crawler/checkers/run-cli.js';

interface Topic {
  title: string;
  copies: number;
  sections: [heading: string, text: string][];
}

const SITES: Record<string, Topic[]> = {
  flask: [
    { title: 'Async views', copies: 6, sections: [['Running async views', 'An async view runs in the event loop; async functions await other async calls.']] },
    { title: 'Asyncio support', copies: 2, sections: [['The event loop', 'Flask runs coroutines with asyncio; the asyncio event loop is created per request.']] },
    { title: 'JSON responses', copies: 6, sections: [['Returning json', 'Return json from a view; the json module encodes the json body.']] },
    { title: 'jsonify', copies: 2, sections: [['Using jsonify', 'Use jsonify to return JSON with the right mimetype; jsonify serializes the arguments.']] },
  ],
  sql: [
    { title: 'Installing on Windows', copies: 6, sections: [['Windows service', 'On Windows the installer registers the service; Windows paths use backslashes.']] },
    { title: 'Window functions', copies: 2, sections: [['Window frames', 'A window function computes over a window of rows; window functions need an OVER clause.']] },
  ],
  pg: [
    { title: 'Upgrading', copies: 6, sections: [['Replaced files', 'The old format was replaced; configuration files are replaced by the new ones.']] },
    { title: 'Replication slots', copies: 2, sections: [['Creating a replication slot', 'A replication slot keeps WAL for a standby; replication slots survive restarts.']] },
  ],
  jinja: [
    { title: 'Templating', copies: 3, sections: [['Template engines', 'Templating with Jinja: templating engines render variables.']] },
    {
      title: 'Template inheritance',
      copies: 2,
      sections: [
        ['Base template', 'Template inheritance lets a child template extend a base template; inheritance keeps the layout in one place.'],
        ['Child template', 'A child template fills the blocks of its base template.'],
      ],
    },
  ],
  notes: [{ title: 'Design notes', copies: 8, sections: [['Lazy loading', 'The loader is lazy; therefore the first request is slower, and therefore warm-up helps.']] }],
};

const slug = (s: string) => s.toLowerCase().replace(/\W+/g, '-');
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

function page(site: string, t: Topic, i: number, links: string): string {
  const body = t.sections.map(([h, text]) => `<h2 id="${slug(h)}">${esc(h)}</h2>\n<p>${esc(text)}</p>`).join('\n');
  return `<!doctype html><html><head><title>${esc(t.title)} ${i} — ${site} docs</title></head><body>
<nav class="sidebar">${links}</nav>
<main><h1>${esc(t.title)} ${i}</h1>
${body}
</main></body></html>`;
}

/** The hosts of the web: each host's home page links every page of it. */
function hosts(): Record<string, { pages: Record<string, string> }> {
  const out: Record<string, { pages: Record<string, string> }> = {};
  for (const [site, topics] of Object.entries(SITES)) {
    const paths = topics.flatMap((t) => Array.from({ length: t.copies }, (_, i) => ({ t, i, path: `/${slug(t.title)}-${i}.html` })));
    const links = paths.map((p) => `<a href="${p.path}">${esc(p.t.title)} ${p.i}</a>`).join(' ');
    const pages: Record<string, string> = { '/': `<!doctype html><html><head><title>${site} docs</title></head><body><h1>${site} docs</h1><ul>${links}</ul></body></html>` };
    for (const p of paths) pages[p.path] = page(site, p.t, p.i, links);
    out[site] = { pages };
  }
  return out;
}

export interface SpellWeb {
  /** The crawl directory: segments, WebDB and the published index. */
  dir: string;
  web: TestWeb;
  /** A page's URL on the web, e.g. `url('jinja', 'Template inheritance', 0)`. */
  url(site: keyof typeof SITES & string, title: string, i: number): string;
  stop(): Promise<void>;
}

/** Serves the web on `block` (e.g. '127.0.27') and crawls it whole with `hazelnut crawl`. */
export async function crawlSpellWeb(block: string): Promise<SpellWeb> {
  const web = await startTestWeb({ block, record: false, hosts: hosts() });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-spell-'));
  const conf = tempConf();
  const stop = async () => {
    await web.stop();
    conf.cleanup();
    fs.rmSync(tmp, { recursive: true, force: true });
  };
  try {
    const seeds = path.join(tmp, 'seeds.txt');
    fs.writeFileSync(seeds, Object.keys(SITES).map((s) => `${web.url(s, '/')}\n`).join(''));
    const dir = path.join(tmp, 'crawl');
    const r = await hz(['-D', 'http.agent.name=hzTest', '-D', 'fetcher.server.delay=0', 'crawl', seeds, '-dir', dir, '-depth', '2'], { confDir: conf.dir });
    if (r.code !== 0) throw new Error(`crawl of the spelling web failed (${r.code}): ${r.err}`);
    return { dir, web, url: (site, title, i) => web.url(site, `/${slug(title)}-${i}.html`), stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

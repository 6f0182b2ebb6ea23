/**
 * @module crawler/demo/authoring/write-site
 * Writes the demo web into crawler/demo/site/<host>/ from the authoring
 * sources: every page, a home page, an index page per section, a site map and
 * robots.txt per host. The output is committed, so a fresh clone serves the
 * demo without running this; run it after editing the sources:
 *   npx tsx crawler/demo/authoring/write-site.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEMO_HOSTS } from '../intranet.js';
import { escapeHtml } from '../../../shared/escape.js';
import { firstSentence, hostByKey, renderPage, type DemoPage, type HostContent } from './shell.js';
import handbook from './handbook.js';
import wiki from './wiki.js';
import docs from './docs.js';
import news from './news.js';

export const SITE_DIR = fileURLToPath(new URL('../site/', import.meta.url));
const CONTENT: HostContent[] = [handbook, wiki, docs, news];

function listing(pages: DemoPage[]): string {
  return pages.map((p) => `- [${p.title}](${p.path}) — ${p.summary ?? firstSentence(p.body)}`).join('\n');
}

/** The pages a host serves: authored ones plus home, section indexes and the site map. */
export function hostPages(c: HostContent): DemoPage[] {
  const host = hostByKey(c.host);
  const pages = [...c.pages];
  for (const s of c.sections) {
    const members = c.pages.filter((p) => p.section === s.key);
    if (members.length === 0) throw new Error(`${c.host}: section ${s.key} has no pages`);
    pages.push({ path: `/${s.key}/index.html`, title: s.title, section: s.key, body: `${s.intro}\n\n${listing(members)}` });
  }
  const sectionList = c.sections.map((s) => `- [${s.title}](/${s.key}/index.html) — ${firstSentence(s.intro)}`).join('\n');
  pages.push({ path: '/index.html', title: host.title, section: '', body: `${c.home}\n\n## Sections\n\n${sectionList}` });
  const everything = c.sections
    .map((s) => {
      const members = pages.filter((p) => p.section === s.key);
      const old = members.flatMap((p) => (p.alsoAt ?? []).map((a) => `- [${p.title} (old address)](${a})`));
      return `## ${s.title}\n\n${members.map((p) => `- [${p.title}](${p.path})`).concat(old).join('\n')}`;
    })
    .join('\n\n');
  pages.push({ path: '/sitemap.html', title: 'Site map', section: '', body: `Every page on ${host.title}.\n\n${everything}` });
  return pages;
}

export function buildSite(outDir = SITE_DIR): number {
  fs.rmSync(outDir, { recursive: true, force: true });
  let count = 0;
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    if (fs.existsSync(file)) throw new Error(`two pages at ${file}`);
    fs.writeFileSync(file, text);
  };
  for (const c of CONTENT) {
    const host = hostByKey(c.host);
    const root = path.join(outDir, host.name);
    for (const page of hostPages(c)) {
      const html = renderPage(c, page);
      for (const p of [page.path, ...(page.alsoAt ?? [])]) {
        write(path.join(root, p), html);
        count++;
      }
    }
    for (const [p, text] of Object.entries(c.files ?? {})) write(path.join(root, p), text);
    const rules = host.disallow.map((d) => `Disallow: ${d}`).join('\n');
    write(path.join(root, 'robots.txt'), `# ${escapeHtml(host.title)}\nUser-agent: *\n${rules || 'Disallow:'}\n`);
  }
  return count;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const n = buildSite();
  console.log(`wrote ${n} pages for ${DEMO_HOSTS.length} hosts into ${SITE_DIR}`);
}

/**
 * @module searcher/search-tool
 * `hazelnut search <crawl_dir> <query ...>`: one query in the terminal,
 * through the same search and summary code as the server. Its own module so
 * that the searcher's front door (tools.ts) loads none of that code where it
 * only forks workers.
 */
import path from 'node:path';
import { UsageError } from '../shared/errors.js';
import { intOption, parseArgs, type ToolContext } from '../shared/command.js';
import { hitDetails } from './details.js';
import { searchJson } from './http/api.js';
import { openLink, totalText } from './http/results.js';
import { search } from './search.js';
import { searchSettings } from './settings.js';
import { CrawlSnapshots } from './snapshot.js';
import { didYouMean } from './suggest.js';
import { summaryToText } from './summary.js';

export async function searchInTerminal(ctx: ToolContext, args: string[]): Promise<number> {
  const a = parseArgs(args, { string: ['n', 'start', 'hitsPerSite'], boolean: ['json'] });
  const [dir, ...words] = a._;
  if (!dir || words.length === 0) throw new UsageError('a crawl directory and a query are needed');
  const snapshots = await CrawlSnapshots.open(path.resolve(dir), searchSettings(ctx.conf));
  const lease = snapshots.acquire();
  try {
    const snap = lease.snapshot;
    const r = search(snap, {
      query: words.join(' '),
      hitsPerPage: intOption(a.n, 'n') ?? 10,
      start: intOption(a.start, 'start'),
      hitsPerSite: intOption(a.hitsPerSite, 'hitsPerSite'),
    });
    if (a.json) {
      ctx.out.write(JSON.stringify(searchJson(snap, r), null, 2) + '\n');
      return 0;
    }
    r.hits.forEach((h, i) => {
      const d = hitDetails(snap, h, r);
      const summary = summaryToText(d.summary);
      const section = d.section && d.section.heading !== h.doc.title.trim() ? `   § ${d.section.heading}\n` : '';
      ctx.out.write(`${r.start + i + 1}. ${h.doc.title.trim() || h.doc.url}\n   ${openLink({ hit: h, section: d.section }, snap.settings.fileUrlMap)}\n${section}${summary ? `   ${summary}\n` : ''}`);
    });
    const shown = r.hits.length ? `hits ${r.start + 1}-${r.start + r.hits.length}` : 'no hits';
    const hidden = r.hidden ? `, ${r.hidden} more from sites already shown (-hitsPerSite 0)` : '';
    ctx.out.write(`search: ${shown} of ${totalText(r)} for "${r.raw}" in ${r.ms.toFixed(1)} ms${hidden}\n`);
    const respelled = didYouMean(snap, r);
    if (respelled) ctx.out.write(`search: did you mean "${respelled.query}"?\n`);
    return 0;
  } finally {
    lease.release();
    snapshots.close();
  }
}

/**
 * ht://Dig as Debian ships it (htdig 3.2.0b6): a configuration that
 * includes /etc/htdig/htdig.conf (so its search_algorithm, exact:1
 * synonyms:0.5 endings:0.1, and its bad_words list apply) and sets only the
 * start URLs, the hosts to stay on, the database directory and the result
 * template. The corpus is crawled over loopback with `htdig -i`, then
 * `htpurge`, then `htfuzzy endings synonyms` builds the fuzzy databases the
 * Debian configuration searches with, as Debian's `rundig` does. Queries
 * run through the real `htsearch` CGI from the command line, with its
 * default match method `and`, and `or` beside it (`boolean` is left out:
 * it rejects a query without explicit operators as a syntax error).
 */
import fs from 'node:fs';
import path from 'node:path';
import { ensureInstalled, run, runOk } from './exec.js';
import type { EngineSetup } from './engine.js';

const HTSEARCH = '/usr/lib/cgi-bin/htsearch';

export async function setupHtdig(tmp: string, seeds: string[], origins: string[]): Promise<EngineSetup> {
  let reason = '';
  if (!(await ensureInstalled(['htdig', 'htpurge', 'htfuzzy', 'htstat', HTSEARCH], ['htdig'], (r) => (reason = r)))) return { skipped: reason };
  const db = path.join(tmp, 'db');
  fs.mkdirSync(db);
  fs.writeFileSync(path.join(tmp, 'seeds.txt'), seeds.join('\n') + '\n');
  fs.writeFileSync(path.join(tmp, 'hit.html'), '$(URL)\n');
  fs.writeFileSync(path.join(tmp, 'empty.html'), '');
  fs.writeFileSync(path.join(tmp, 'syntax.html'), 'SYNTAX ERROR $(SYNTAXERROR)\n');
  const conf = path.join(tmp, 'htdig.conf');
  fs.writeFileSync(
    conf,
    [
      'include: /etc/htdig/htdig.conf',
      `database_dir: ${db}`,
      `start_url: \`${path.join(tmp, 'seeds.txt')}\``,
      `limit_urls_to: ${origins.map((o) => `${o}/`).join(' ')}`,
      // The fuzzy databases next to the index instead of in /etc/htdig.
      `endings_root2word_db: ${db}/root2word.db`,
      `endings_word2root_db: ${db}/word2root.db`,
      `synonym_db: ${db}/synonyms.db`,
      // Output only: one URL per line.
      `template_map: Bench bench ${path.join(tmp, 'hit.html')}`,
      'template_name: bench',
      `search_results_header: ${path.join(tmp, 'empty.html')}`,
      `search_results_footer: ${path.join(tmp, 'empty.html')}`,
      `nothing_found_file: ${path.join(tmp, 'empty.html')}`,
      `syntax_error_file: ${path.join(tmp, 'syntax.html')}`,
      'matches_per_page: 10',
      '',
    ].join('\n'),
  );
  const env = { ...process.env, TMPDIR: db };
  const t0 = Date.now();
  await runOk('htdig', ['-i', '-c', conf], { env, timeoutMs: 300_000 });
  await runOk('htpurge', ['-c', conf], { env, timeoutMs: 120_000 });
  const indexMs = Date.now() - t0;
  const docs = Number(/Total documents: (\d+)/.exec((await runOk('htstat', ['-c', conf], { env })).out)?.[1] ?? NaN);
  await runOk('htfuzzy', ['-c', conf, 'endings', 'synonyms'], { env, timeoutMs: 300_000 });

  // htsearch reads its query from the argument only when it is not running as a CGI.
  const { REQUEST_METHOD: _cgi, ...cliEnv } = process.env;
  const rank = (method: string) => async (q: string) => {
    const qs = new URLSearchParams({ words: q, method, matchesperpage: '10', page: '1' }).toString();
    const r = await run(HTSEARCH, ['-c', conf, qs], { env: cliEnv, timeoutMs: 20_000 });
    if (r.code !== 0) throw new Error(`htsearch ${qs} exited ${r.code}: ${r.err}`);
    if (r.out.includes('SYNTAX ERROR')) return [];
    return r.out.split('\n').flatMap((l) => (/^https?:\/\//.test(l.trim()) ? [l.trim()] : []));
  };
  return {
    indexMs,
    docs,
    commands: [
      `htdig -i -c <tmp>/htdig.conf && htpurge -c <tmp>/htdig.conf && htfuzzy -c <tmp>/htdig.conf endings synonyms`,
      `htdig.conf: include: /etc/htdig/htdig.conf, then database_dir, start_url read from <tmp>/seeds.txt (every page URL), limit_urls_to the 4 origins, the fuzzy db paths, a one-line result template, matches_per_page: 10`,
      `${HTSEARCH} -c <tmp>/htdig.conf 'words=<query>&method=and|or&matchesperpage=10&page=1'`,
    ],
    variants: [
      { label: 'ht://Dig (method=and, its default)', rank: rank('and') },
      { label: 'ht://Dig (method=or)', rank: rank('or') },
    ],
  };
}

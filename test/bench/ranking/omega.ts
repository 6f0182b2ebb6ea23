/**
 * Xapian Omega as a user installs it from Debian (xapian-omega 1.4): the
 * corpus files indexed by `omindex` with its defaults (English stemmer,
 * HTML title and body, BM25), then the real `omega` CGI run from the
 * command line with Omega's own defaults (QueryParser, built-in stop words,
 * DEFAULTOP=AND since 1.3.0) and, as the variant its query template offers,
 * DEFAULTOP=OR. The only template is a minimal one printing the hit URLs,
 * with the same field prefixes as the shipped `query` template.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { JudgedHost } from '../../judged/corpus.js';
import { writeCorpusFiles } from './corpus-web.js';
import { ensureInstalled, run, runOk } from './exec.js';
import type { EngineSetup } from './engine.js';

const OMEGA = '/usr/lib/cgi-bin/omega/omega';
const TEMPLATE = '$setmap{prefix,,$split{ S B F},title,S,author,A,topic,B}$hitlist{$field{url}\n}';

export async function setupOmega(tmp: string, base: (h: JudgedHost) => string): Promise<EngineSetup> {
  let reason = '';
  if (!(await ensureInstalled(['omindex', 'xapian-delve', OMEGA], ['xapian-omega', 'xapian-tools'], (r) => (reason = r)))) return { skipped: reason };
  const files = path.join(tmp, 'files');
  const toUrl = writeCorpusFiles(files, base);
  const db = path.join(tmp, 'default');
  const t0 = Date.now();
  await runOk('omindex', ['--db', db, '--url', '/', files], { timeoutMs: 120_000 });
  const indexMs = Date.now() - t0;
  const docs = Number(/number of documents = (\d+)/.exec((await runOk('xapian-delve', [db])).out)?.[1] ?? NaN);

  fs.mkdirSync(path.join(tmp, 'templates'));
  fs.writeFileSync(path.join(tmp, 'templates', 'urls'), TEMPLATE);
  const conf = path.join(tmp, 'omega.conf');
  fs.writeFileSync(conf, `database_dir ${tmp}\ntemplate_dir ${path.join(tmp, 'templates')}\nlog_dir ${tmp}\ncdb_dir ${tmp}\n`);
  const env = { ...process.env, OMEGA_CONFIG_FILE: conf };

  const rank = (extra: string[]) => async (q: string) => {
    const r = await run(OMEGA, ['DB=default', 'FMT=urls', 'HITSPERPAGE=10', `P=${q}`, ...extra], { env, timeoutMs: 20_000 });
    if (r.code !== 0) throw new Error(`omega P=${q} exited ${r.code}: ${r.err}`);
    // CGI headers, a blank line, then one URL per hit.
    const body = r.out.slice(r.out.indexOf('\n\n') + 2);
    return body.split('\n').flatMap((line) => toUrl.get(line.trim()) ?? []);
  };
  return {
    indexMs,
    docs,
    commands: [
      `omindex --db <tmp>/default --url / <tmp>/files   # one file per page, <host>/<path>.html, mtime = fetch time`,
      `OMEGA_CONFIG_FILE=<tmp>/omega.conf ${OMEGA} DB=default FMT=urls HITSPERPAGE=10 P='<query>' [DEFAULTOP=or]`,
      `template urls: ${TEMPLATE.replace('\n', '\\n')}`,
    ],
    variants: [
      { label: 'Xapian Omega (DEFAULTOP=and, its default)', rank: rank([]) },
      { label: 'Xapian Omega (DEFAULTOP=or)', rank: rank(['DEFAULTOP=or']) },
    ],
  };
}

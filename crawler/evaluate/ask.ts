/**
 * @module crawler/evaluate/ask
 * The judged queries asked of the crawl as its users will ask them: a
 * `hazelnut-searcher` of the crawl directory started on a free loopback
 * port, each query through its JSON API, the hits as served (hits per site
 * and all). The crawler never loads the searcher's code (the layout rule);
 * it runs the searcher, the same way a deployment does.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { Conf } from '../../shared/conf.js';
import { HzError } from '../../shared/errors.js';
import { confArgs } from '../fetch/fetchers.js';
import { DEPTH } from './metrics.js';

const SEARCHER = path.resolve(import.meta.dirname, '..', '..', 'searcher', 'hazelnut-searcher.js');
const START_MS = 120_000;
const QUERY_MS = 30_000;

export interface Answers {
  documents: number;
  /** Each query's first ten hits, in the order asked. */
  hits: string[][];
}

/** Starts a searcher of `crawlDir`, asks each query, stops it. */
export async function askSearcher(conf: Conf, crawlDir: string, queries: readonly string[]): Promise<Answers> {
  const args = [SEARCHER, ...confArgs(conf), '-dir', crawlDir, '-port', '0', '-host', '127.0.0.1', '-workers', '1'];
  const child = spawn(process.execPath, args, { env: { ...process.env, HAZELNUT_CONF_DIR: conf.confDir }, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  let err = '';
  child.stderr.on('data', (b) => (err = (err + b).slice(-4000)));
  try {
    const serving = await new Promise<{ url: string; documents: number }>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new HzError('HZ_ERR_NOT_FOUND', `the searcher of ${crawlDir} did not start within ${START_MS / 1000} s`)), START_MS);
      child.stdout.on('data', (b) => {
        out += b;
        const m = /searcher serving (\d+) documents .* at (http:\/\/\S+?)\/?\n/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve({ documents: Number(m[1]), url: m[2]! });
        }
      });
      void exited.then((code) => {
        clearTimeout(timer);
        reject(new HzError('HZ_ERR_NOT_FOUND', `the searcher of ${crawlDir} could not start (exit ${code}): ${err.trim().split('\n').slice(-2).join(' / ')}`));
      });
    });
    const hits: string[][] = [];
    for (const q of queries) {
      const r = await fetch(`${serving.url}/api/search?query=${encodeURIComponent(q)}&hitsPerPage=${DEPTH}`, { signal: AbortSignal.timeout(QUERY_MS) });
      if (!r.ok) throw new HzError('HZ_ERR_NOT_FOUND', `the searcher answered HTTP ${r.status} to ${JSON.stringify(q)}`);
      hits.push(((await r.json()) as { hits: { url: string }[] }).hits.map((h) => h.url));
    }
    return { documents: serving.documents, hits };
  } finally {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  }
}

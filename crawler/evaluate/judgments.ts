/**
 * @module crawler/evaluate/judgments
 * A team's own judged queries: `query<TAB>expected URL[<TAB>more URLs]`, one
 * a line, `#` starting a comment. Read before anything runs, so a mistake is
 * named by file and line and nothing is searched or stored.
 */
import fs from 'node:fs';
import { HzError } from '../../shared/errors.js';

export interface Judgment {
  query: string;
  /** The URLs a good first page holds (any one of them counts). */
  expected: string[];
  /** Where it is written: `file:line`. */
  where: string;
}

/** The judgments of a file's text; every bad line is named in one error. */
export function parseJudgments(text: string, file: string): Judgment[] {
  const out: Judgment[] = [];
  const bad: string[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const where = `${file}:${i + 1}`;
    const line = raw.replace(/^\uFEFF/, '');
    if (!line.trim() || line.trimStart().startsWith('#')) return;
    const [query, ...urls] = line.split('\t').map((c) => c.trim());
    const expected = urls.filter(Boolean);
    if (!query || expected.length === 0) {
      bad.push(`${where}: expected a query, a tab and the URL it should find, not ${JSON.stringify(line)}`);
      return;
    }
    const wrong = expected.find((u) => !URL.canParse(u));
    if (wrong !== undefined) {
      bad.push(`${where}: ${JSON.stringify(wrong)} is not a URL`);
      return;
    }
    out.push({ query, expected: expected.map((u) => new URL(u).href), where });
  });
  if (bad.length) throw new HzError('HZ_ERR_CONF_FILE', bad.join('\n'));
  if (out.length === 0) throw new HzError('HZ_ERR_CONF_FILE', `${file}: no judged query in it (query<TAB>expected URL, one a line)`);
  return out;
}

export function readJudgments(file: string): Judgment[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new HzError('HZ_ERR_NOT_FOUND', `cannot read the judgments file ${file}: ${(e as Error).message}`);
  }
  return parseJudgments(text, file);
}

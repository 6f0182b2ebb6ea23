/**
 * @module crawler/webdb/sqlite/urls
 * The numbers the link tables name URLs by (the `urls` table): looked up
 * several a statement, and given to new URLs in one insert of several rows,
 * as a call costs more than the row it reads or writes.
 */
import { chunked, insertRows } from './rows.js';
import type { Statements } from './statements.js';

const LOOKUP = 16;
const FIND = `SELECT url, id FROM urls WHERE url IN (${Array(LOOKUP).fill('?').join(', ')})`;
const ADD = chunked('INSERT INTO urls (id, url) VALUES (?, ?)');

/** The number of each of `urls` known; with `create`, new ones are numbered (after the last) and stored. */
export function urlIds(sql: Statements, urls: Iterable<string>, create: boolean): Map<string, number> {
  const ids = new Map<string, number>();
  const wanted = [...new Set(urls)];
  const find = sql(FIND).raw();
  for (let i = 0; i < wanted.length; i += LOOKUP) {
    const chunk = wanted.slice(i, i + LOOKUP);
    // The statement takes a fixed number of URLs: a short chunk repeats its last.
    while (chunk.length < LOOKUP) chunk.push(chunk[chunk.length - 1]!);
    for (const [url, id] of find.all(chunk) as [string, number][]) ids.set(url, id);
  }
  if (!create || ids.size === wanted.length) return ids;
  let next = (sql('SELECT COALESCE(MAX(id), 0) FROM urls').pluck().get() as number) + 1;
  const added: [number, string][] = [];
  for (const u of wanted)
    if (!ids.has(u)) {
      ids.set(u, next);
      added.push([next++, u]);
    }
  insertRows(sql, ADD, added, (v, [id, url]) => v.push(id, url));
  return ids;
}

/** The number of one URL, or undefined when the link tables never named it. */
export function urlId(sql: Statements, url: string): number | undefined {
  return sql('SELECT id FROM urls WHERE url = ?').pluck().get(url) as number | undefined;
}

/**
 * @module crawler/webdb/sqlite/rows
 * Inserts many rows with few calls into SQLite (a call costs more than the
 * row it inserts): chunks of 16, 8, 4, 2 and 1 rows per statement
 * (`VALUES (…), (…), …`, run in order, as one row at a time would), so a
 * page's 21 links take three calls.
 */
import type Database from 'better-sqlite3';

const SIZES = [16, 8, 4, 2, 1];

/** `insert` (ending in one `VALUES (?, …)` group, then `tail`) for each chunk size, largest first. */
export function chunked(insert: string, tail = ''): string[] {
  const group = insert.slice(insert.lastIndexOf('('));
  return SIZES.map((n) => insert + `, ${group}`.repeat(n - 1) + tail);
}

/** Inserts `items` through `texts` (chunked's), `bind` pushing an item's values; returns the rows changed. */
export function insertRows<T>(
  prepare: (sql: string) => Database.Statement,
  texts: readonly string[],
  items: readonly T[],
  bind: (values: unknown[], item: T) => void,
): number {
  const values: unknown[] = [];
  let n = 0;
  let i = 0;
  for (let k = 0; k < SIZES.length && i < items.length; k++) {
    const size = SIZES[k]!;
    if (i + size > items.length) continue;
    const insert = prepare(texts[k]!);
    for (; i + size <= items.length; i += size) {
      values.length = 0;
      for (let j = i; j < i + size; j++) bind(values, items[j]!);
      n += insert.run(values).changes;
    }
  }
  return n;
}

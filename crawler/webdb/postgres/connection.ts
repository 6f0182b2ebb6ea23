/**
 * @module crawler/webdb/postgres/connection
 * One WebDB connection: transactions (savepoints inside one), the held-back
 * writes (writes.ts) sent before a read that could see them and at commit,
 * and cursors that read a big result a batch at a time.
 */
import { SyncClient, type Result } from './sync-client.js';
import { TABLE_OF, writeStatements, type Table, type Write } from './writes.js';

/** Held-back writes sent at once past this many, so memory stays bounded. */
const MAX_HELD = 5000;
/** Rows per cursor fetch. */
const CURSOR_BATCH = 2000;

export class Connection {
  private held: Write[] = [];
  private readonly heldTables = new Set<Table>();
  private readonly heldPages = new Set<string>();
  private depth = 0;
  private cursors = 0;
  /** Cursors not yet closed: they live in the session, so what runs beside them is not sent again on a new one. */
  private open = 0;

  constructor(readonly client: SyncClient) {}

  /** Holds a write back until a read needs it, the batch is full, or the transaction commits. */
  write(w: Write): void {
    this.held.push(w);
    this.heldTables.add(TABLE_OF[w.kind]);
    if (w.kind === 'page') this.heldPages.add(w.row.url);
    if (this.depth === 0 || this.held.length >= MAX_HELD) this.flush();
  }

  /** Sends the held writes (outside a transaction, as one). */
  flush(): void {
    if (this.held.length === 0) return;
    const statements = writeStatements(this.drop());
    if (this.depth > 0) {
      this.client.run(statements);
      return;
    }
    try {
      this.client.run([{ text: 'BEGIN' }, ...statements, { text: 'COMMIT' }], this.standsAlone());
    } catch (e) {
      this.rollback('ROLLBACK');
      throw e;
    }
  }

  /** Takes the held writes out, sent or not. */
  private drop(): Write[] {
    const held = this.held;
    this.held = [];
    this.heldTables.clear();
    this.heldPages.clear();
    return held;
  }

  /** Whether a statement sent now stands alone: after a lost connection it may be sent again on a new one. */
  private standsAlone(): boolean {
    return this.depth === 0 && this.open === 0;
  }

  /** Undoes a failed transaction; its own failure (a lost server) must not hide the error that caused it. */
  private rollback(statement: string): void {
    try {
      this.client.query(statement);
    } catch {
      // The error being thrown says what went wrong.
    }
  }

  /** Before a read of `table` (of one page row, when `url` is given): sends the writes it could see. */
  before(table: Table, url?: string): void {
    if (!this.heldTables.has(table)) return;
    // Held page writes are whole rows: a read of another row cannot see them.
    if (table === 'pages' && url !== undefined && !this.heldPages.has(url)) return;
    this.flush();
  }

  query<R = Record<string, unknown>>(table: Table | undefined, text: string, values?: unknown[], url?: string): Result<R> {
    if (table) this.before(table, url);
    else this.flush();
    return this.client.query<R>(text, values, this.standsAlone());
  }

  transaction<T>(fn: () => T): T {
    this.flush();
    const savepoint = `hz_sp${this.depth}`;
    this.client.query(this.depth === 0 ? 'BEGIN' : `SAVEPOINT ${savepoint}`, undefined, this.standsAlone());
    this.depth++;
    try {
      const r = fn();
      this.flush();
      this.depth--;
      this.client.query(this.depth === 0 ? 'COMMIT' : `RELEASE SAVEPOINT ${savepoint}`);
      return r;
    } catch (e) {
      // Whatever is held was written after this transaction (or savepoint) began.
      this.drop();
      this.depth--;
      this.rollback(this.depth === 0 ? 'ROLLBACK' : `ROLLBACK TO SAVEPOINT ${savepoint}`);
      throw e;
    }
  }

  /**
   * The rows of `text`, fetched a batch at a time through a cursor (one that
   * outlives the transaction when none is open). Leaving the loop early closes it.
   */
  *cursor<R>(table: Table, text: string, values: unknown[] = [], opts: { array?: boolean } = {}): Generator<R> {
    this.before(table);
    const name = `hz_cursor${this.cursors++}`;
    const inTransaction = this.depth > 0;
    this.client.run([{ text: `DECLARE ${name} NO SCROLL CURSOR${inTransaction ? '' : ' WITH HOLD'} FOR ${text}`, values }], this.standsAlone());
    let open = true;
    this.open++;
    try {
      for (;;) {
        const { rows } = this.client.run([{ text: `FETCH ${CURSOR_BATCH} FROM ${name}`, array: opts.array }])[0]!;
        yield* rows as R[];
        if (rows.length < CURSOR_BATCH) break;
      }
      this.client.query(`CLOSE ${name}`);
      open = false;
    } finally {
      this.open--;
      // A cursor of a transaction that has ended is gone with it.
      if (open && (!inTransaction || this.depth > 0))
        try {
          this.client.query(`CLOSE ${name}`);
        } catch {
          // A failed transaction took the cursor with it; its error is the one to report.
        }
    }
  }
}

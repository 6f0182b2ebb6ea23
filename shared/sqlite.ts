/**
 * @module shared/sqlite
 * The settings every writing SQLite connection uses (the WebDB, segments and
 * the segment writer thread): WAL, so readers (the searcher, readdb) never
 * wait for a writer, and NORMAL sync, which keeps every commit through a
 * killed process; only a power loss can take back the last ones.
 */
export const WAL_WRITER_PRAGMAS: readonly string[] = ['journal_mode = WAL', 'synchronous = NORMAL'];

/**
 * @module shared/sqlite
 * The settings of SQLite connections. Every connection keeps a page cache of
 * at most 2 MB (CACHE_PRAGMA), SQLite's own default: better-sqlite3 is built
 * with 16 MB, and a cache fills as its connection reads or writes and stays
 * full until it closes, in the process's malloc heap. A crawl's index phase
 * alone holds four connections that read or write whole files (the segment,
 * its summary records, the WebDB twice), so their caches were about 60 MB of
 * the crawl's peak RSS; pages beyond the cache come from the kernel's. The
 * tools that rewrite much of the WebDB keep more (BULK_CACHE_PRAGMA).
 * Every writing connection (the WebDB, segments and the segment writer
 * thread) uses WAL, so readers (the searcher, readdb) never wait for a
 * writer, and NORMAL sync, which keeps every commit through a killed
 * process; only a power loss can take back the last ones.
 */
export const CACHE_PRAGMA = 'cache_size = -2048';
/**
 * updatedb and invertlinks insert rows all over the WebDB's b-trees (links,
 * inlinks, their indexes); with 2 MB the interior pages of a 100k-page
 * WebDB's indexes no longer stay cached and updatedb's time a page grew
 * 1.9× from 10k to 100k pages. They close their connection before the
 * index phase, where a crawl's memory peaks, so 16 MB costs the peak nothing.
 */
export const BULK_CACHE_PRAGMA = 'cache_size = -16384';
/**
 * The searcher keeps a connection open to every segment its hits are in and
 * reads a few rows of one a hit (a parse's text and meta by URL): at 2 MB a
 * connection, a million pages' 40 segments held 80 MB of every searcher
 * worker once queries had touched them all. 256 KB keeps each file's upper
 * b-tree pages; the rest come from the kernel's cache, shared by the workers.
 */
export const LOOKUP_CACHE_PRAGMA = 'cache_size = -256';
export const WAL_WRITER_PRAGMAS: readonly string[] = [CACHE_PRAGMA, 'journal_mode = WAL', 'synchronous = NORMAL'];

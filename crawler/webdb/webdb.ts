/**
 * @module crawler/webdb/webdb
 * The WebDB's operations: what Nutch kept in crawldb + linkdb, behind named
 * operations the tools call (inject, generate, updatedb, invertlinks,
 * linkrank, readdb, index, and the fetcher's robots.txt cache). Tools keep
 * the decisions (what is due, how rows merge, which inlinks count); a
 * backend only stores and selects. The operations are synchronous, as the
 * tools run them inside transactions. SQLite (`sqlite/`, a directory) is the
 * embedded backend; PostgreSQL (`postgres/`, a `postgresql://` URL) lets
 * tools on several machines share one WebDB.
 *
 * In the WebDB `fetch_time` is the *next* fetch time (CrawlDatum's meaning).
 * Every tool that changes the WebDB does so in transactions, so a crash
 * leaves the previous state.
 */
import type { Conf } from '../../shared/conf.js';
import { HzError } from '../../shared/errors.js';
import type { WebDb, WebDbOpenOptions } from './interface.js';
import { setWebDbWait } from './postgres/timeouts.js';
import { hasPostgresWebDb, isPostgresUrl, openPostgresWebDb } from './postgres/open.js';
import { hasWebDb as hasSqliteWebDb, openSqliteWebDb } from './sqlite/open.js';

import { shownUrl } from './postgres/timeouts.js';

export type * from './interface.js';

/**
 * Where a WebDB lives: `embedded` in a directory of a crawl directory
 * (SQLite), whose lock file guards it; or on a `server` (a `postgresql://`
 * URL) that tools on several machines share, which guards it itself.
 */
export type WebDbKind = 'embedded' | 'server';

export function webDbKind(dirOrUrl: string): WebDbKind {
  return isPostgresUrl(dirOrUrl) ? 'server' : 'embedded';
}

/** Whether fetchers on other machines reach the WebDB, so it keeps each fetch partition's segment files for them. */
export function sharesPartitionsRemotely(dirOrUrl: string): boolean {
  return webDbKind(dirOrUrl) === 'server';
}

/** A WebDB directory or URL as messages show it: a URL's password left out. */
export function shownWebDb(dirOrUrl: string): string {
  return webDbKind(dirOrUrl) === 'server' ? shownUrl(dirOrUrl) : dirOrUrl;
}

/** Sets how long every PostgreSQL WebDB connection of the process waits for its server (webdb.timeout). */
export function configureWebDb(conf: Conf): void {
  const ms = conf.getDuration('webdb.timeout', 's');
  if (!(ms > 0)) throw new HzError('HZ_ERR_CONF_PROPERTY', `property webdb.timeout in ${conf.source('webdb.timeout')} must be a positive duration, not ${conf.get('webdb.timeout')}`);
  setWebDbWait(ms);
}

/**
 * Opens (and with `create`, creates) the WebDB in directory `dir`, or at a
 * `postgresql://` URL. Read-only opens never create anything, so `readdb` on
 * a wrong path changes nothing.
 */
export function openWebDb(dirOrUrl: string, opts: WebDbOpenOptions = {}): WebDb {
  return isPostgresUrl(dirOrUrl) ? openPostgresWebDb(dirOrUrl, opts) : openSqliteWebDb(dirOrUrl, opts);
}

/** Whether the directory or URL holds a WebDB. */
export function hasWebDb(dirOrUrl: string): boolean {
  return isPostgresUrl(dirOrUrl) ? hasPostgresWebDb(dirOrUrl) : hasSqliteWebDb(dirOrUrl);
}

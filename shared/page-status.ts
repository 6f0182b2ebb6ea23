/**
 * @module shared/page-status
 * Page statuses in Nutch's two families: the WebDB's state of a URL
 * (`db_*`, CrawlDatum 0x01–0x06) and the outcome of one fetch (`fetch_*`,
 * 0x21–0x26). The numeric codes are Nutch's, for `readdb` output.
 */

export const DB_STATUSES = [
  'db_unfetched',
  'db_fetched',
  'db_gone',
  'db_redir_temp',
  'db_redir_perm',
  'db_notmodified',
] as const;
export type DbStatus = (typeof DB_STATUSES)[number];

export const FETCH_STATUSES = [
  'fetch_success',
  'fetch_retry',
  'fetch_redir_temp',
  'fetch_redir_perm',
  'fetch_gone',
  'fetch_notmodified',
] as const;
export type FetchStatus = (typeof FETCH_STATUSES)[number];

export const STATUS_CODES: Record<DbStatus | FetchStatus, number> = {
  db_unfetched: 0x01,
  db_fetched: 0x02,
  db_gone: 0x03,
  db_redir_temp: 0x04,
  db_redir_perm: 0x05,
  db_notmodified: 0x06,
  fetch_success: 0x21,
  fetch_retry: 0x22,
  fetch_redir_temp: 0x23,
  fetch_redir_perm: 0x24,
  fetch_gone: 0x25,
  fetch_notmodified: 0x26,
};

/** Nutch's ProtocolStatus names: why a fetch ended the way it did. */
export const PROTOCOL_STATUSES = [
  'success',
  'failed',
  'proto_not_found',
  'gone',
  'moved',
  'temp_moved',
  'notfound',
  'retry',
  'exception',
  'access_denied',
  'robots_denied',
  'redir_exceeded',
  'notfetching',
  'notmodified',
  'wouldblock',
  'blocked',
] as const;
export type ProtocolStatus = (typeof PROTOCOL_STATUSES)[number];

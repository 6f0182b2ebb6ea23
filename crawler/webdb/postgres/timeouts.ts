/**
 * @module crawler/webdb/postgres/timeouts
 * How long a tool waits for its PostgreSQL WebDB, and the messages that say
 * it gave up. One wait for everything (webdb.timeout, set once per process
 * from the configuration) bounds a reconnect after a lost connection and a
 * statement on a server that stopped answering; a connect waits as long,
 * or as the URL's libpq `connect_timeout` (or PGCONNECT_TIMEOUT) says.
 * These are rules over plain values: the connection thread applies them.
 */
import { HzError } from '../../../shared/errors.js';

export interface PgTimeouts {
  /** ms a connect may take. */
  connectMs: number;
  /** ms to wait for a lost server to come back, or a stopped one to answer. */
  waitMs: number;
  /** ms idle before TCP keepalive probes a connection. */
  keepAliveMs: number;
}

const DEFAULT_WAIT_MS = 30_000;
let waitMs = DEFAULT_WAIT_MS;

/** Sets the wait of every WebDB connection this process opens (webdb.timeout). */
export function setWebDbWait(ms: number): void {
  if (!(ms > 0)) throw new RangeError(`the WebDB wait must be positive, not ${ms}`);
  waitMs = ms;
}

/** The timeouts of a connection to `url`: the URL's connect_timeout (s), else PGCONNECT_TIMEOUT, else the wait. */
export function timeoutsFor(url: string, env: NodeJS.ProcessEnv = process.env): PgTimeouts {
  let param: string | null = null;
  try {
    param = new URL(url).searchParams.get('connect_timeout');
  } catch {
    // pg reports a URL it cannot parse.
  }
  const given = Number(param ?? env.PGCONNECT_TIMEOUT);
  // libpq: zero or negative means wait indefinitely; here that is the wait, which always ends.
  const connectMs = Number.isFinite(given) && given > 0 ? Math.max(2, given) * 1000 : waitMs;
  return { connectMs, waitMs, keepAliveMs: Math.min(10_000, waitMs) };
}

/** The URL with its password left out, for messages. */
export function shownUrl(url: string): string {
  return url.replace(/^(postgres(?:ql)?:\/\/[^:@/]*):[^@/]*@/, '$1:***@');
}

const secs = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/** What the connection thread says of a failed connect, as a user reads it. */
export function connectFailure(url: string, message: string, connectMs: number): HzError {
  let why = message.replace(/^lost the WebDB at \S+: /, '');
  if (/password must be a string/i.test(why))
    why = 'the server asks for a password and none was given: put it in the URL (postgresql://user:password@host/db), in PGPASSWORD, or in ~/.pgpass';
  else if (/timeout/i.test(why)) why = `no answer within ${secs(connectMs)} (connect_timeout in the URL, PGCONNECT_TIMEOUT or webdb.timeout)`;
  return new HzError('HZ_ERR_WEBDB', `cannot connect to the WebDB at ${shownUrl(url)}: ${why}`);
}

/** A wait for the server that ran out: the URL, what was waited for and how long. */
export function waitFailure(url: string, message: string, what: string, waitedMs: number): HzError {
  return new HzError('HZ_ERR_WEBDB', `lost the WebDB at ${shownUrl(url)}: waited ${secs(waitedMs)} for ${what} (webdb.timeout); last error: ${message}`);
}

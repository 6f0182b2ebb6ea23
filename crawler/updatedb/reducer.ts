/**
 * @module crawler/updatedb/reducer
 * The updatedb status merge (Nutch's CrawlDbReducer) as one pure function:
 * the page's WebDB row, the outcome of its fetch in a segment and the links
 * to it found in that segment give its new row. No SQLite, no clock: the
 * caller passes `now`.
 *
 * | fetch                       | new row |
 * |-----------------------------|---------|
 * | none, no links              | unchanged |
 * | none, linked                | old row with the links' cash added, or a new db_unfetched page due now |
 * | success / redirect / 304    | db_fetched / db_redir_temp / db_redir_perm, or db_notmodified when a 304 or an equal signature says so; next fetch from the schedule; past db.fetch.interval.max the page is reset for a full refetch (db_unfetched) |
 * | retry                       | retried a day later; db_gone after db.fetch.retry.max |
 * | retry, protocol `blocked`   | deferred by the fetcher without a request: unchanged, due again now |
 * | gone                        | db_gone, interval × 1.5, capped below db.fetch.interval.max |
 *
 * Deliberate differences from Nutch: a transient error on a page fetched
 * before keeps its status (db_fetched, db_notmodified) while it is retried —
 * its last content is still good — instead of turning it db_unfetched; the
 * last retry moves the page to the gone schedule instead of leaving it due
 * the next day; a gone page stays db_gone (NUTCH-1245). Without a
 * `db.update.additions.allowed` a URL not yet in the WebDB is never added.
 */
import type { ScoringFilter } from '../../shared/plugin/extension-points.js';
import type { DbStatus, FetchStatus } from '../../shared/page-status.js';
import { host } from '../url/keys.js';
import type { FetchDatum, PageRow } from '../webdb/interface.js';
import {
  forceRefetch,
  initializeSchedule,
  setFetchSchedule,
  setPageGoneSchedule,
  setPageRetrySchedule,
  type Modification,
  type ScheduleOptions,
  type ScheduleState,
} from './schedule.js';

export interface MergeOptions {
  /** `db.update.additions.allowed` */
  additionsAllowed: boolean;
  /** `db.fetch.retry.max` */
  retryMax: number;
  /** `db.update.max.inlinks`: linked datums considered, highest cash first; negative for all. */
  maxInlinks: number;
  schedule: ScheduleOptions;
  scoring: Pick<ScoringFilter, 'initialScore' | 'updateDbScore'>;
}

const FETCHED_STATUS: Partial<Record<FetchStatus, DbStatus>> = {
  fetch_success: 'db_fetched',
  fetch_redir_temp: 'db_redir_temp',
  fetch_redir_perm: 'db_redir_perm',
};

function newRow(url: string, s: ScheduleState, score: number): PageRow {
  return {
    url,
    host: host(url),
    status: 'db_unfetched',
    fetch_time: s.fetchTime,
    fetch_interval: s.fetchInterval,
    retries: s.retries,
    score,
    link_score: 0,
    signature: null,
    modified_time: s.modifiedTime,
    last_fetch_time: null,
    generate_time: null,
    protocol_status: null,
    etag: null,
    last_modified: null,
    metadata: null,
  };
}

function withSchedule(row: PageRow, s: ScheduleState): PageRow {
  return { ...row, fetch_time: s.fetchTime, fetch_interval: Math.round(s.fetchInterval), retries: s.retries, modified_time: s.modifiedTime };
}

/** The linked datums' cash that counts: the highest `db.update.max.inlinks` of them. */
function countedCash(linked: readonly number[], maxInlinks: number): number[] {
  return maxInlinks >= 0 && linked.length > maxInlinks ? [...linked].sort((a, b) => b - a).slice(0, maxInlinks) : [...linked];
}

/** A page that was not fetched but is linked: its cash added, or a new page due now. */
function linkedOnly(url: string, old: PageRow | undefined, cash: number[], o: MergeOptions, now: number): PageRow | undefined {
  if (cash.length === 0) return old;
  if (old) return { ...old, score: o.scoring.updateDbScore(url, old.score, cash) };
  return newRow(url, initializeSchedule(o.schedule, now), o.scoring.updateDbScore(url, o.scoring.initialScore(url), cash));
}

/** The row a fetch starts from: the old one, or one made from what generate saw of a page gone from the WebDB. */
function fetchBase(url: string, old: PageRow | undefined, fetch: FetchDatum, o: MergeOptions, now: number): PageRow {
  if (old) return old;
  const g = fetch.generated ?? {};
  return newRow(
    url,
    { ...initializeSchedule(o.schedule, now), fetchInterval: g.fetch_interval ?? o.schedule.defaultInterval, retries: g.retries ?? 0 },
    g.score ?? o.scoring.initialScore(url),
  );
}

/** Whether the content changed: a 304 says not; else equal signatures say not, different ones say it did. */
export function modification(old: PageRow | undefined, fetch: FetchDatum): Modification {
  if (fetch.status === 'fetch_notmodified') return 'notmodified';
  if (!old?.signature || !fetch.signature) return 'unknown';
  return old.signature === fetch.signature ? 'notmodified' : 'modified';
}

/** When the content last changed: kept when it did not; a success's Last-Modified when plausible, else its fetch time. */
export function modifiedTimeOf(m: Modification, base: PageRow, fetch: FetchDatum): number {
  if (m === 'notmodified') return base.modified_time || fetch.modifiedTime;
  if (fetch.status !== 'fetch_success') return base.modified_time;
  return fetch.modifiedTime > 0 && fetch.modifiedTime <= fetch.fetchTime ? fetch.modifiedTime : fetch.fetchTime;
}

/** A success, redirect or 304: the next fetch from the schedule, reset for a full refetch past db.fetch.interval.max. */
function afterContent(row: PageRow, base: PageRow, old: PageRow | undefined, fetch: FetchDatum, state: ScheduleState, o: MergeOptions, now: number): PageRow {
  const m = modification(old, fetch);
  row = withSchedule(row, setFetchSchedule(o.schedule, state, fetch.fetchTime, modifiedTimeOf(m, base, fetch), m));
  row.etag = fetch.etag ?? (m === 'notmodified' ? base.etag : null);
  row.last_modified = fetch.lastModified ?? (m === 'notmodified' ? base.last_modified : null);
  if (m === 'notmodified') {
    row.status = 'db_notmodified';
    row.signature = base.signature ?? fetch.signature;
  } else {
    row.status = FETCHED_STATUS[fetch.status]!;
    row.signature = fetch.signature;
  }
  if (row.fetch_interval > o.schedule.maxInterval) {
    row = withSchedule(row, forceRefetch(o.schedule, { ...state, fetchTime: row.fetch_time, fetchInterval: row.fetch_interval }, now, false));
    row.status = 'db_unfetched';
    row.signature = null;
  }
  return row;
}

/** A transient failure: retried a day later, keeping a good status; gone after db.fetch.retry.max. */
function afterRetry(row: PageRow, base: PageRow, fetch: FetchDatum, state: ScheduleState, o: MergeOptions): PageRow {
  // Deferred by the fetcher, not failed (Crawl-delay above fetcher.max.crawl.delay, the time
  // limit, a long tail): no request was made, so no retry is counted; due again next cycle.
  if (fetch.protocolStatus === 'blocked') return { ...row, last_fetch_time: base.last_fetch_time, fetch_time: fetch.fetchTime };
  const s = setPageRetrySchedule(o.schedule, state, fetch.fetchTime);
  if (s.retries < o.retryMax) {
    row = withSchedule(row, s);
    row.status = base.status === 'db_fetched' || base.status === 'db_notmodified' ? base.status : 'db_unfetched';
  } else {
    row = withSchedule(row, setPageGoneSchedule(o.schedule, s, fetch.fetchTime));
    row.status = 'db_gone';
  }
  return row;
}

/** A page gone: on the gone schedule, its validators dropped. */
function afterGone(row: PageRow, fetch: FetchDatum, state: ScheduleState, o: MergeOptions): PageRow {
  row = withSchedule(row, setPageGoneSchedule(o.schedule, state, fetch.fetchTime));
  row.status = 'db_gone';
  row.etag = null;
  row.last_modified = null;
  return row;
}

export function mergePage(
  url: string,
  old: PageRow | undefined,
  fetch: FetchDatum | undefined,
  linked: readonly number[],
  o: MergeOptions,
  now: number,
): PageRow | undefined {
  if (!old && !o.additionsAllowed) return undefined;
  const cash = countedCash(linked, o.maxInlinks);
  if (!fetch) return linkedOnly(url, old, cash, o, now);
  const base = fetchBase(url, old, fetch, o, now);
  const state: ScheduleState = { fetchTime: base.fetch_time, fetchInterval: base.fetch_interval, retries: base.retries, modifiedTime: base.modified_time };
  if (fetch.scoreAdjust) cash.push(fetch.scoreAdjust);
  const row: PageRow = {
    ...base,
    score: o.scoring.updateDbScore(url, base.score, cash),
    generate_time: null,
    last_fetch_time: fetch.fetchTime,
    protocol_status: fetch.protocolStatus,
  };
  switch (fetch.status) {
    case 'fetch_success':
    case 'fetch_redir_temp':
    case 'fetch_redir_perm':
    case 'fetch_notmodified':
      return afterContent(row, base, old, fetch, state, o, now);
    case 'fetch_retry':
      return afterRetry(row, base, fetch, state, o);
    case 'fetch_gone':
      return afterGone(row, fetch, state, o);
  }
}

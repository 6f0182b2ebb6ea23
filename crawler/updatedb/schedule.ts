/**
 * @module crawler/updatedb/schedule
 * Fetch schedules (Nutch's FetchSchedule, `db.fetch.schedule.class`): pure
 * functions from a page's schedule state and a fetch outcome to its next
 * fetch time and interval. Times are ms, intervals seconds.
 *
 * - DefaultFetchSchedule: refetch every interval, whatever happened.
 * - AdaptiveFetchSchedule: shrink the interval when the page changed, grow
 *   it when it did not, optionally synchronised to the page's own change
 *   time (`sync_delta`), clamped to [min_interval, max_interval].
 *
 * Differences from Nutch, on purpose: min/max intervals are read as numbers
 * (Nutch read `60.0` with getInt, which fell back to its code defaults); a
 * retry waits one day in ms (Nutch 1.0 waited 86.4 s, NUTCH-773); an
 * interval of 0 means the default everywhere (NUTCH-774); a gone page whose
 * interval passes `db.fetch.interval.max` is capped at 0.9 × max and stays
 * gone instead of being reset to unfetched (NUTCH-1245).
 */
import type { Conf } from '../../shared/conf.js';
import { HzError } from '../../shared/errors.js';

export const DAY_MS = 86_400_000;

/** Whether a fetch found the content changed, by a 304 or by comparing signatures. */
export type Modification = 'modified' | 'notmodified' | 'unknown';

export interface ScheduleState {
  /** ms: next fetch in the WebDB, or when a fetch happened. */
  fetchTime: number;
  /** s */
  fetchInterval: number;
  retries: number;
  /** ms, 0 when unknown */
  modifiedTime: number;
}

export interface AdaptiveOptions {
  incRate: number;
  decRate: number;
  /** s */
  minInterval: number;
  /** s */
  maxInterval: number;
  syncDelta: boolean;
  syncDeltaRate: number;
}

export interface ScheduleOptions {
  /** s: `db.fetch.interval.default` */
  defaultInterval: number;
  /** s: `db.fetch.interval.max` */
  maxInterval: number;
  /** Present for the adaptive schedule. */
  adaptive?: AdaptiveOptions;
}

const intervalOf = (s: ScheduleState, o: ScheduleOptions) => (s.fetchInterval > 0 ? s.fetchInterval : o.defaultInterval);

/** A page first seen: due now, default interval. */
export function initializeSchedule(o: ScheduleOptions, now: number): ScheduleState {
  return { fetchTime: now, fetchInterval: o.defaultInterval, retries: 0, modifiedTime: 0 };
}

/** After a successful fetch (or redirect, or not-modified) at `fetchTime`. */
export function setFetchSchedule(o: ScheduleOptions, s: ScheduleState, fetchTime: number, modifiedTime: number, m: Modification): ScheduleState {
  const a = o.adaptive;
  if (!a) {
    const interval = intervalOf(s, o);
    return { fetchTime: fetchTime + interval * 1000, fetchInterval: interval, retries: 0, modifiedTime };
  }
  let interval = intervalOf(s, o);
  let refTime = fetchTime;
  const modTime = modifiedTime > 0 ? modifiedTime : fetchTime;
  if (m === 'modified') interval *= 1 - a.decRate;
  else if (m === 'notmodified') interval *= 1 + a.incRate;
  if (a.syncDelta) {
    const delta = (fetchTime - modTime) / 1000;
    if (delta > interval) interval = delta;
    refTime = fetchTime - Math.round(delta * a.syncDeltaRate * 1000);
  }
  interval = Math.min(a.maxInterval, Math.max(a.minInterval, interval));
  return { fetchTime: refTime + Math.round(interval * 1000), fetchInterval: interval, retries: 0, modifiedTime: modTime };
}

/** After a temporary failure: try again in a day. */
export function setPageRetrySchedule(_o: ScheduleOptions, s: ScheduleState, fetchTime: number): ScheduleState {
  return { ...s, fetchTime: fetchTime + DAY_MS, retries: s.retries + 1 };
}

/** After the page was found gone: back off by half the interval again, never beyond 0.9 × max. */
export function setPageGoneSchedule(o: ScheduleOptions, s: ScheduleState, fetchTime: number): ScheduleState {
  const interval = Math.min(intervalOf(s, o) * 1.5, o.maxInterval * 0.9);
  return { ...s, fetchTime: fetchTime + Math.round(interval * 1000), fetchInterval: interval };
}

/**
 * Forget what is known about the content so the next fetch is a full one
 * (the caller resets status and signature). `asap` makes it due now.
 */
export function forceRefetch(o: ScheduleOptions, s: ScheduleState, now: number, asap: boolean): ScheduleState {
  return {
    fetchTime: asap ? now : s.fetchTime,
    fetchInterval: s.fetchInterval > o.maxInterval ? o.maxInterval * 0.9 : s.fetchInterval,
    retries: 0,
    modifiedTime: 0,
  };
}

/**
 * Whether generate may select the page now. A page scheduled further ahead
 * than `db.fetch.interval.max` (a clock jump, a lowered max) is pulled in.
 */
export function shouldFetch(o: ScheduleOptions, s: ScheduleState, now: number): { fetch: boolean; state: ScheduleState } {
  if (s.fetchTime - now > o.maxInterval * 1000) {
    const fetchInterval = s.fetchInterval > o.maxInterval ? o.maxInterval * 0.9 : s.fetchInterval;
    return { fetch: true, state: { ...s, fetchTime: now, fetchInterval } };
  }
  return { fetch: s.fetchTime <= now, state: s };
}

/** The schedule `db.fetch.schedule.class` names (hazelnut's short names or Nutch's class names). */
export function scheduleFromConf(conf: Conf): ScheduleOptions {
  const defaultInterval = conf.getDuration('db.fetch.interval.default', 's') / 1000;
  const maxInterval = conf.getDuration('db.fetch.interval.max', 's') / 1000;
  const name = conf.get('db.fetch.schedule.class');
  switch (name.slice(name.lastIndexOf('.') + 1)) {
    case 'DefaultFetchSchedule':
      return { defaultInterval, maxInterval };
    case 'AdaptiveFetchSchedule':
      return {
        defaultInterval,
        maxInterval,
        adaptive: {
          incRate: conf.getFloat('db.fetch.schedule.adaptive.inc_rate'),
          decRate: conf.getFloat('db.fetch.schedule.adaptive.dec_rate'),
          minInterval: conf.getFloat('db.fetch.schedule.adaptive.min_interval'),
          maxInterval: conf.getFloat('db.fetch.schedule.adaptive.max_interval'),
          syncDelta: conf.getBoolean('db.fetch.schedule.adaptive.sync_delta'),
          syncDeltaRate: conf.getFloat('db.fetch.schedule.adaptive.sync_delta_rate'),
        },
      };
    default:
      throw new HzError(
        'HZ_ERR_CONF_PROPERTY',
        `property db.fetch.schedule.class in ${conf.source('db.fetch.schedule.class')} must be DefaultFetchSchedule or AdaptiveFetchSchedule, not ${JSON.stringify(name)}`,
      );
  }
}

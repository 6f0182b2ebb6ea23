/**
 * How close the fetch's ETA comes to the time the fetch then takes: the
 * crawl child (crawl-child.ts) gives its log a terminal-like stream that
 * keeps every progress line redrawn (ten a second) with when it came; each
 * reading of a round's fetch is set against the time from it to the round's
 * last fetch line. Readings with less than `minLeftMs` left are not judged
 * (the ETA is rounded to seconds), nor the first tenth of a round (the rate
 * is still being learnt).
 */
import { Writable } from 'node:stream';

export interface EtaReading {
  round: number;
  at: number;
  done: number;
  total: number;
  etaMs: number;
}

export interface EtaAccuracy {
  /** The round judged: the one with the most pages. */
  round: number;
  pages: number;
  /** Seconds of that round's fetch. */
  fetchS: number;
  judged: number;
  /** Readings within 20 % of the time that was left. */
  within20: number;
  /** Median and worst of |ETA − left| ÷ left, in %. */
  medianErrPct: number;
  worstErrPct: number;
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, min: 60_000, h: 3_600_000 };

/** `3 min 20 s`, `45 s`, `850 ms`, `1 h 05 min` (formatDuration's forms) in ms; undefined for `?`. */
export function readDuration(text: string): number | undefined {
  const parts = [...text.matchAll(/(\d+)\s*(ms|s|min|h)\b/g)];
  return parts.length ? parts.reduce((ms, [, n, unit]) => ms + Number(n) * UNITS[unit!]!, 0) : undefined;
}

/** A stream for the crawl's Log (`tty: true`) and the readings it took. */
export function etaRecorder(now: () => number = () => performance.now()): { stream: Writable; readings: EtaReading[] } {
  const readings: EtaReading[] = [];
  let round = 0;
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split(/\r|\n/)) {
        const r = /round (\d+)\//.exec(line);
        if (r && /fetching/.test(line)) round = Number(r[1]);
        const m = /fetch (\d+)\/(\d+) pages .*?ETA ([^·]+)/.exec(line);
        const etaMs = m ? readDuration(m[3]!) : undefined;
        if (m && etaMs !== undefined) readings.push({ round, at: now(), done: Number(m[1]), total: Number(m[2]), etaMs });
      }
      done();
    },
  });
  return { stream, readings };
}

/** The largest round's readings judged against the time each had left. */
export function etaAccuracy(readings: readonly EtaReading[], minLeftMs = 3000): EtaAccuracy | undefined {
  const byRound = new Map<number, EtaReading[]>();
  for (const r of readings) byRound.set(r.round, [...(byRound.get(r.round) ?? []), r]);
  const [round, rs] = [...byRound].sort((a, b) => b[1].at(-1)!.total - a[1].at(-1)!.total)[0] ?? [];
  if (round === undefined || !rs) return undefined;
  const end = rs.at(-1)!.at;
  const errs = rs
    .filter((r) => end - r.at >= minLeftMs && r.done >= r.total / 10)
    .map((r) => Math.abs(r.etaMs - (end - r.at)) / (end - r.at))
    .sort((a, b) => a - b);
  return {
    round,
    pages: rs.at(-1)!.total,
    fetchS: Math.round((end - rs[0]!.at) / 100) / 10,
    judged: errs.length,
    within20: errs.filter((e) => e <= 0.2).length,
    medianErrPct: Math.round((errs[Math.floor(errs.length / 2)] ?? 0) * 100),
    worstErrPct: Math.round((errs.at(-1) ?? 0) * 100),
  };
}

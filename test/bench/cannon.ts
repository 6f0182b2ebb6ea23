/**
 * autocannon as the search benchmarks run it: 16 connections for 6 s against
 * one URL, or cycling through a list of paths on it.
 */
import autocannon from 'autocannon';

export interface CannonResult {
  rps: number;
  /** Whole milliseconds, as autocannon reports them. */
  p50: number;
  p99: number;
  errors: number;
}

export async function cannon(url: string, paths?: string[]): Promise<CannonResult> {
  let i = 0;
  const r = await autocannon({
    url,
    connections: 16,
    duration: 6,
    ...(paths ? { requests: [{ setupRequest: (req: Record<string, unknown>) => ({ ...req, path: paths[i++ % paths.length] }) }] } : {}),
  } as autocannon.Options);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx + r.timeouts };
}

/** autocannon reports whole milliseconds. */
export const wholeMs = (x: number) => (x < 1 ? '<1' : String(x));

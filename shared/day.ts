/**
 * @module shared/day
 * A day as `yyyyMMdd` in UTC: the form of the index's `date` field, of
 * `prune -before` and of `date:` in queries, so all three read and write it
 * alike.
 */

/** `yyyyMMdd` (UTC) of an instant in ms. */
export function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10).replaceAll('-', '');
}

/** The UTC midnight a `yyyyMMdd` names, or undefined when it is not a real day (20240230 is not). */
export function parseDay(s: string): Date | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(s);
  if (!m) return undefined;
  const d = new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!));
  return dayOf(d.getTime()) === s ? d : undefined;
}

/**
 * @module segments/names
 * A segment's name is its UTC creation time (`yyyyMMddHHmmss`), so names
 * sort by age and a directory that is not a segment is told by its name.
 */
import fs from 'node:fs';
import path from 'node:path';
import { segmentDir, segmentFile } from '../shared/crawl-dir.js';

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** `yyyyMMddHHmmss` in UTC. */
export function segmentName(d: Date): string {
  return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`;
}

/** The creation time a segment name stands for, or undefined if it is not a segment name. */
export function segmentDate(name: string): Date | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(name);
  if (!m) return undefined;
  const d = new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!));
  return segmentName(d) === name ? d : undefined;
}

/** Segment names under `segmentsDir`, oldest first. Directories without a segment file are ignored. */
export function listSegments(segmentsDir: string): string[] {
  if (!fs.existsSync(segmentsDir)) return [];
  return fs
    .readdirSync(segmentsDir)
    .filter((n) => segmentDate(n) && fs.existsSync(segmentFile(segmentDir(segmentsDir, n))))
    .sort();
}

/**
 * Makes the directory of a new segment named after `now` (UTC). When that
 * name is taken the next free second is used, so two segments made in one
 * second stay distinct and still sort by age.
 */
export function makeSegmentDir(segmentsDir: string, now: Date): string {
  fs.mkdirSync(segmentsDir, { recursive: true });
  for (let t = Math.floor(now.getTime() / 1000) * 1000; ; t += 1000) {
    const dir = path.join(segmentsDir, segmentName(new Date(t)));
    try {
      fs.mkdirSync(dir);
      return dir;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
}

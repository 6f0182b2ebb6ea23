/**
 * `hazelnut` runs of a cluster test: in the test's temp directory (or
 * another), with its properties, bounded in time, each process remembered
 * so the test kills what is left when it ends.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as assert from 'uvu/assert';
import { runHazelnut, type HazelnutRun } from '../fixtures/hazelnut-process.js';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function clusterRuns(opts: { cwd: () => string; defines: Record<string, string>; timeoutMs: number }) {
  const procs = new Set<ChildProcess>();
  /** `hazelnut` as a process of its own; `onStart` may kill it. */
  const hazelnut = (args: string[], defines: Record<string, string> = {}, onStart?: (p: ChildProcess) => void, cwd = opts.cwd()): Promise<HazelnutRun> =>
    runHazelnut(args, {
      cwd,
      defines: { ...opts.defines, ...defines },
      timeoutMs: opts.timeoutMs,
      onStart: (p) => {
        procs.add(p);
        p.on('close', () => procs.delete(p));
        onStart?.(p);
      },
    });
  /** Its output, the run having exited 0. */
  const ok = async (args: string[], defines: Record<string, string> = {}): Promise<string> => {
    const r = await hazelnut(args, defines);
    assert.is(r.code, 0, `hazelnut ${args.join(' ')}\n${r.out}\n${r.err}`);
    return r.out;
  };
  /** The newest segment of a crawl directory. */
  const newestSegment = (dir: string): string => {
    const segs = path.join(opts.cwd(), dir, 'segments');
    return path.join(segs, fs.readdirSync(segs).sort().at(-1)!);
  };
  return { procs, hazelnut, ok, newestSegment };
}

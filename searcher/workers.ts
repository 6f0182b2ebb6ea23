/**
 * @module searcher/workers
 * `serve -workers n`: n searcher processes behind one port (node:cluster),
 * for a machine whose other cores one process leaves idle; by default
 * (`searcher.workers` 0) one a core. Each worker opens
 * the index itself (n copies in memory) and answers whole requests; the
 * primary hands connections to them in turn. A signal to the primary stops
 * every worker after its requests in flight, even one still starting; a worker that ends by itself
 * (it could not start, or it died) stops the others and the server exits 1.
 * Workers start with a small young generation, an old generation that grows
 * by half at a time and glibc's malloc told to give large buffers back
 * and the garbage collector on their own thread (`workerMemory`), unless
 * the operator set any of them.
 */
import cluster, { type Worker } from 'node:cluster';
import os from 'node:os';
import { threadModule } from '../shared/thread-module.js';

/**
 * What a worker is started with so its memory stays near what it holds: a
 * young generation of 1 MB semi-spaces (node's default grows them to 16 MB:
 * some 35 MB of a worker's memory that only short-lived objects pass
 * through), and glibc's malloc with two arenas and every buffer of 64 KB or
 * more mapped on its own, so a freed one goes back to the system (its
 * threshold otherwise rises to the largest buffer freed, and the index's
 * read and decoded buffers stayed in the process once freed). Measured at
 * 100k pages: 130–146 MB a worker after 1,000 queries, 215 MB without.
 * And an old generation that grows by a quarter of its live size after each
 * full collection: with so small a young generation, most of a query's
 * garbage is promoted, and V8's own factor (up to 4×) let a realweb worker
 * reach 120–130 MB after 1,000 queries over 45 MB live. At 50 % a realweb
 * worker held 78–89 MB (mean 83.5, 16 workers) after 1,000 growth-mix
 * queries, its old space 38–46 MB over 19–25 MB live; at 25 % 72–84 MB
 * (mean 76.5, 14 workers), for some 6 % more CPU a query (40.5 -> 43.1 ms,
 * paired at load 8–13) and the same p50.
 * And the collector on the worker's own thread: a worker answers one
 * request at a time on a core of its own, and V8's helper threads (four a
 * process) only contend with the other workers for the same cores, a
 * collection waiting for a helper another process holds the core of.
 * Measured at 100k pages under 16 connections on cores busy with other
 * work (load 16–20 on 2 cores): 11–12 % less CPU a request (19.97 -> 17.70
 * and 20.76 -> 18.32 ms), the same memory; on idle cores about the same
 * (17.14 -> 17.29 and 16.84 -> 17.45 ms, within the noise).
 */
export function workerMemory(env: NodeJS.ProcessEnv, execArgv: readonly string[]): { execArgv: string[]; env: NodeJS.ProcessEnv } {
  const given = `${env.NODE_OPTIONS ?? ''} ${execArgv.join(' ')}`;
  const flags = WORKER_FLAGS.filter((f) => !given.includes(f.split('=')[0]!));
  return {
    execArgv: [...execArgv, ...flags],
    env: env.GLIBC_TUNABLES === undefined ? { GLIBC_TUNABLES: 'glibc.malloc.mmap_threshold=65536:glibc.malloc.arena_max=2' } : {},
  };
}

/** V8's flags for a worker, each left out when the operator gave it. */
const WORKER_FLAGS = ['--max-semi-space-size=1', '--heap-growing-percent=25', '--single-threaded-gc'];

/** The processes to serve with: `asked` (-workers or searcher.workers), or one a core for 0. */
export const workerCount = (asked: number, cores = os.availableParallelism()): number => (asked > 0 ? asked : cores);

/** What a worker tells the primary. */
export type WorkerReport = { serving: string };

/** Runs in the primary: forks `n` workers; returns 0 when a signal stopped them all, 1 when one failed. */
export function superviseWorkers(n: number, out: NodeJS.WritableStream, log: (line: string) => void): Promise<number> {
  return new Promise((resolve) => {
    const serving = new Set<Worker>();
    let stopping = false;
    let failed = false;
    const settleWhenNoneLeft = () => {
      if (Object.keys(cluster.workers ?? {}).length === 0) resolve(failed ? 1 : 0);
    };
    const stopAll = () => {
      stopping = true;
      // A signal, not a message: a worker still starting has no ear for messages yet, but keeps a signal (stop.ts),
      // or, before it listens, ends by it. One that stopped by itself meanwhile is skipped.
      for (const w of Object.values(cluster.workers ?? {})) if (w && !w.isDead()) w.process.kill('SIGTERM');
    };
    cluster.on('message', (w, m: WorkerReport) => {
      if (typeof m?.serving !== 'string' || serving.has(w)) return;
      serving.add(w);
      if (serving.size === n) out.write(`${m.serving.trimEnd()} (${n} worker processes)\n`);
    });
    cluster.on('exit', (w, code, signal) => {
      if (!stopping) {
        // Its error is on stderr; the others stop, and whatever runs the searcher can start it again. A worker
        // that exits 0 was stopped by a signal of its own, sent to the whole group: a stop, not a failure.
        log(`worker ${w.process.pid} ended (${signal ?? `exit ${code}`}); stopping the others`);
        if (code !== 0 || signal) failed = true;
        stopAll();
      }
      settleWhenNoneLeft();
    });
    // A worker leaves cluster.workers once it has both exited and lost its channel, in either order: when its
    // exit comes first, only the disconnect that follows finds the list empty.
    cluster.on('disconnect', settleWhenNoneLeft);
    const onSignal = (sig: NodeJS.Signals) => {
      if (stopping) return;
      log(`${sig}: stopping ${n} workers after their requests in flight`);
      stopAll();
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
    const memory = workerMemory(process.env, process.execArgv);
    cluster.setupPrimary({ execArgv: memory.execArgv });
    for (let i = 0; i < n; i++) cluster.fork({ ...memory.env, ...builtMain() });
  });
}

export const isWorker = () => cluster.isWorker;

/**
 * Where a worker finds its code: the build the primary runs from (hazelnut-searcher.js reads it), so a
 * worker neither checks that build's files again (a stat of each of some 300, 6–30 ms of its start) nor
 * could run another build made meanwhile. The primary's record keeps that build, and a worker ends with
 * the primary. None when the primary runs the sources (under tsx).
 */
function builtMain(): { HAZELNUT_SEARCHER_MAIN?: string } {
  const main = threadModule(new URL('./main.ts', import.meta.url)).href;
  return main.endsWith('.js') ? { HAZELNUT_SEARCHER_MAIN: main } : {};
}

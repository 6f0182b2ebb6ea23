/**
 * @module shared/worker-limits
 * V8's limits for the crawler's worker threads (worker.young.generation.mb):
 * a thread's young generation would otherwise grow as large as the main
 * thread's, for threads that keep little from one page to the next.
 */
import type { ResourceLimits } from 'node:worker_threads';

/** The limits of a worker whose young generation is `mb` MB: V8's default for 0 or none. */
export const youngGeneration = (mb = 0): ResourceLimits => (mb > 0 ? { maxYoungGenerationSizeMb: mb } : {});

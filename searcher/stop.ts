/**
 * @module searcher/stop
 * When a searcher (a single process, a worker, or a broker) is asked to stop.
 * It listens from before it opens anything, so a SIGTERM that comes while the
 * index opens or the port is taken is kept, not lost, and the searcher stops
 * as soon as it is up instead of serving on until a SIGKILL. A second signal
 * to a single process finds no handler left and ends it at once, as one
 * expects of a second Ctrl-C; a worker drains whatever it is sent.
 */
import { isWorker } from './workers.js';

export interface StopListener {
  /** Resolves with the signal's name when one asks to stop. */
  asked: Promise<string>;
  /** Whether a stop was asked already. */
  readonly isAsked: boolean;
  /** Stops listening (the server has stopped, or could not start). */
  cancel(): void;
}

export function listenForStop(): StopListener {
  let isAsked = false;
  let resolve!: (why: string) => void;
  const asked = new Promise<string>((r) => (resolve = r));
  // A worker stops when the primary passes a signal on; Ctrl-C reaches the primary and every worker alike, and a
  // service manager's SIGTERM to the group reaches a worker twice (its own and the primary's): one is enough.
  const ignore = () => {};
  const stop = (sig: NodeJS.Signals) => {
    process.off('SIGTERM', stop);
    process.off('SIGINT', stop);
    if (isWorker()) process.on('SIGTERM', ignore);
    isAsked = true;
    resolve(sig);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', isWorker() ? ignore : stop);
  return {
    asked,
    get isAsked() {
      return isAsked;
    },
    cancel() {
      for (const sig of ['SIGTERM', 'SIGINT'] as const) {
        process.off(sig, stop);
        process.off(sig, ignore);
      }
    },
  };
}

// TypeScript modules for a worker thread, loaded in the thread itself through tsx's require hook.
// tsx's ES module loader (module.register) would start a loader thread for every worker, each with
// a V8 isolate of its own (about 20 MB, and a thread more, for every worker that parses or analyzes).
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
require('tsx/cjs/api').register();

/** The exports of the TypeScript module at `url` (a file: URL). */
export const requireTs = (url) => require(fileURLToPath(url));

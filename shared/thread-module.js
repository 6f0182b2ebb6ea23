// The modules a worker thread starts with or loads by URL, as this process runs its code: from the
// build (shared/build.js) when it runs built, from the TypeScript sources otherwise (the tests, under
// tsx). Sources load through tsx's require hook in the thread itself: tsx's ES module loader
// (module.register) would start a loader thread for every worker, each with a V8 isolate of its own.
// Plain JavaScript, so a thread can load it however the main thread was started.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** The package's root: this file's URL is its source's in a build too (shared/build.js rewrites import.meta.url). */
const ROOT = new URL('../', import.meta.url);

/** The build's directory when this code runs built; shared/build.js gives import.meta.build its value. */
const BUILD = import.meta.build;

/** A source file's name in a build: its path from the package root, `/` as `.`, as JavaScript. */
export const builtName = (rel) => `${rel.replace(/\.[jt]s$/, '').replaceAll('/', '.')}.js`;

/** The module to start a thread with, or to hand a thread to load, for the source module at `url`. */
export function threadModule(url) {
  const u = new URL(url);
  if (!BUILD) return u;
  if (!u.href.startsWith(ROOT.href)) throw new Error(`${u.href} is not a module of this package`);
  return new URL(builtName(u.href.slice(ROOT.href.length)), BUILD);
}

let require;

/** Loads the module at `url` (from threadModule) into this thread: TypeScript through tsx's require hook, JavaScript as it is. */
export async function loadModule(url) {
  const u = new URL(url);
  if (!u.pathname.endsWith('.ts')) return import(u.href);
  if (!require) {
    require = createRequire(import.meta.url);
    require('tsx/cjs/api').register();
  }
  return require(fileURLToPath(u));
}

#!/usr/bin/env node
// Entry point of the `hazelnut-searcher` command: runs the build of the sources (shared/build.js says why).
// A worker of `-workers n` runs the build its primary runs (searcher/workers.ts, builtMain).
import cluster from 'node:cluster';
import { loadCommand } from '../shared/build.js';

const fromPrimary = cluster.isWorker ? process.env.HAZELNUT_SEARCHER_MAIN : undefined;
const { main } = fromPrimary ? await import(fromPrimary) : await loadCommand('searcher/main.ts');
process.exitCode = await main(process.argv.slice(2), { out: process.stdout, err: process.stderr, env: process.env });

#!/usr/bin/env node
// Entry point of the `hazelnut-searcher` command: runs the build of the sources (shared/build.js says why).
import { loadCommand } from '../shared/build.js';

const { main } = await loadCommand('searcher/main.ts');
process.exitCode = await main(process.argv.slice(2), { out: process.stdout, err: process.stderr, env: process.env });

#!/usr/bin/env node
// Entry point of the `hazelnut-searcher` command: loads the TypeScript sources through tsx.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('./main.ts');
process.exitCode = await main(process.argv.slice(2), { out: process.stdout, err: process.stderr, env: process.env });

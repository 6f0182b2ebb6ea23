#!/usr/bin/env node
// Entry point of the `hazelnut` command: runs the build of the sources (shared/build.js says why).
import { loadCommand } from '../shared/build.js';

// `hazelnut readdb ... | head`: a reader that stops early is not an error.
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (e) => {
    if (e.code === 'EPIPE') process.exit(0);
    throw e;
  });
const { main } = await loadCommand('crawler/cli.ts');
process.exitCode = await main(process.argv.slice(2), {
  out: process.stdout,
  err: process.stderr,
  tty: Boolean(process.stderr.isTTY),
  env: process.env,
  in: process.stdin.isTTY ? undefined : process.stdin,
});

#!/usr/bin/env node
// Entry point of the `hazelnut` command: loads the TypeScript sources through tsx.
import { register } from 'tsx/esm/api';

register();
// `hazelnut readdb ... | head`: a reader that stops early is not an error.
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (e) => {
    if (e.code === 'EPIPE') process.exit(0);
    throw e;
  });
const { main } = await import('./cli.ts');
process.exitCode = await main(process.argv.slice(2), {
  out: process.stdout,
  err: process.stderr,
  tty: Boolean(process.stderr.isTTY),
  env: process.env,
  in: process.stdin.isTTY ? undefined : process.stdin,
});

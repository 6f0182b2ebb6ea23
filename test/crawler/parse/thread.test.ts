/** What a parse thread loads before its first page: the parsers, not the HTTP client's library. */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runNode } from '../../fixtures/run-bin.js';

const root = path.resolve(import.meta.dirname, '../../..');

test('the parse thread module, as built, does not load undici', async () => {
  // A process of its own: this one has loaded undici for other tests.
  const script = `
    import { createRequire } from 'node:module';
    const { ensureBuild } = await import(${JSON.stringify(pathToFileURL(path.join(root, 'shared', 'build.js')).href)});
    const m = await import(new URL('crawler.parse.thread.js', await ensureBuild()).href);
    if (typeof m.pageParser !== 'function') throw new Error('no pageParser');
    const loaded = Object.keys(createRequire(import.meta.url).cache).filter((f) => f.includes('/node_modules/undici/'));
    process.stdout.write(String(loaded.length));`;
  const { code, out, err } = await runNode(['--input-type=module', '-e', script]);
  assert.equal([code, out], [0, '0'], err);
});

test.run();

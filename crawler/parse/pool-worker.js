// The thread behind crawler/parse/pool.ts: loads the crawler's plugins from
// the fetcher's configuration and parses the pages it is handed, a batch per
// message. Plain JavaScript that registers tsx itself, so it loads the same
// way however the main thread was started.
import { parentPort, workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { Conf } = await import('../../shared/conf.ts');
const { loadCrawlerPlugins } = await import('../plugins.ts');
const { parseContent } = await import('./index.ts');

const conf = Conf.load({ confDir: workerData.confDir }).with(workerData.properties);
const plugins = await loadCrawlerPlugins(conf);

parentPort.on('message', async ({ pages }) => {
  const results = await Promise.all(
    pages.map(async ({ id, content, fetch }) => {
      // A Buffer arrives as a plain Uint8Array.
      const bytes = Buffer.from(content.bytes.buffer, content.bytes.byteOffset, content.bytes.byteLength);
      return [id, await parseContent(plugins, conf, { ...content, bytes }, fetch)];
    }),
  );
  parentPort.postMessage({ results });
});

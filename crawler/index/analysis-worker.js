// An analysis thread of crawler/index/analysis-pool.ts: analyzes the pages it is sent, a batch at a time and
// in order, and answers each batch with its pages' terms as its analyzer's term numbers (the terms numbered
// since the last answer go along) and their summary checkpoints.
import { parentPort, workerData } from 'node:worker_threads';
import { loadModule, threadModule } from '../../shared/thread-module.js';

const { Analyzer } = await loadModule(threadModule(new URL('../../shared/analysis/analyzer.ts', import.meta.url)));
const { pageTerms } = await loadModule(threadModule(new URL('./page-terms.ts', import.meta.url)));

const analyzer = new Analyzer(workerData.analyzer);
let sent = 0;

parentPort.on('message', (batch) => {
  const pages = [];
  const buffers = [];
  for (const { page, text } of batch) {
    const { ids, lengths, sections, checkpoints } = pageTerms(analyzer, page, text === true ? page.content : text, workerData.maxTokens);
    const off = checkpoints && new Uint8Array(checkpoints);
    pages.push({ ids, lengths, sections, checkpoints: off });
    buffers.push(ids.buffer);
    if (off) buffers.push(off.buffer);
  }
  const words = analyzer.numbered.slice(sent);
  sent = analyzer.numbered.length;
  parentPort.postMessage({ words, pages }, buffers);
});

// An analysis thread of crawler/index/analysis-pool.ts: analyzes the pages it is sent, a batch at a time and
// in order, and answers each batch with its pages' terms as its analyzer's term numbers (the terms numbered
// since the last answer go along) and their summary checkpoints. The batch's numbers and checkpoints go in one array
// each, moved rather than copied: each array a message moves costs more than copying a page's few kilobytes.
import { parentPort, workerData } from 'node:worker_threads';
import { loadModule, threadModule } from '../../shared/thread-module.js';

const { Analyzer } = await loadModule(threadModule(new URL('../../shared/analysis/analyzer.ts', import.meta.url)));
const { pageTerms } = await loadModule(threadModule(new URL('./page-terms.ts', import.meta.url)));

const analyzer = new Analyzer(workerData.analyzer);
let sent = 0;

parentPort.on('message', (batch) => {
  const pages = [];
  const analyzed = [];
  let idCount = 0;
  let checkpointBytes = 0;
  for (const { page, text } of batch) {
    const a = pageTerms(analyzer, page, text === true ? page.content : text, workerData.maxTokens);
    analyzed.push(a);
    idCount += a.ids.length;
    checkpointBytes += a.checkpoints ? a.checkpoints.length : 0;
  }
  const ids = new Uint32Array(idCount);
  const checkpoints = new Uint8Array(checkpointBytes);
  let i = 0;
  let o = 0;
  for (const { ids: pageIds, lengths, sections, checkpoints: off } of analyzed) {
    ids.set(pageIds, i);
    i += pageIds.length;
    if (off) checkpoints.set(off, o), (o += off.length);
    pages.push({ lengths, sections, checkpoints: off ? off.length : -1 });
  }
  const words = analyzer.numbered.slice(sent);
  sent = analyzer.numbered.length;
  parentPort.postMessage({ words, ids, checkpoints, pages }, [ids.buffer, checkpoints.buffer]);
});

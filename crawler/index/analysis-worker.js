// An analysis thread of crawler/index/analysis-pool.ts: analyzes the pages it is sent, in order, and
// answers each with its terms as its analyzer's term numbers (the terms numbered since the last answer go
// along) and its summary offsets.
import { parentPort, workerData } from 'node:worker_threads';
import { loadModule, threadModule } from '../../shared/thread-module.js';

const { Analyzer } = await loadModule(threadModule(new URL('../../shared/analysis/analyzer.ts', import.meta.url)));
const { pageTerms } = await loadModule(threadModule(new URL('./page-terms.ts', import.meta.url)));

const analyzer = new Analyzer(workerData.analyzer);
let sent = 0;

parentPort.on('message', ({ page, text }) => {
  const { ids, lengths, sections, offsets } = pageTerms(analyzer, page, text === true ? page.content : text, workerData.maxTokens);
  const words = analyzer.numbered.slice(sent);
  sent = analyzer.numbered.length;
  const off = offsets && new Uint8Array(offsets);
  parentPort.postMessage({ words, ids, lengths, sections, offsets: off }, off ? [ids.buffer, off.buffer] : [ids.buffer]);
});

// An analysis thread of crawler/index/analysis-pool.ts: analyzes the pages it is sent, in order, and
// answers each with its terms as ids in a dictionary of its own (the words it adds go along with the
// answer that first uses them) and its summary offsets.
import { parentPort, workerData } from 'node:worker_threads';
import { loadModule, threadModule } from '../../shared/thread-module.js';

const { Analyzer } = await loadModule(threadModule(new URL('../../shared/analysis/analyzer.ts', import.meta.url)));
const { pageTerms } = await loadModule(threadModule(new URL('./page-terms.ts', import.meta.url)));

const analyzer = new Analyzer(workerData.analyzer);
const dict = new Map();
let added = [];
const idOf = (t) => {
  let id = dict.get(t);
  if (id === undefined) {
    id = dict.size;
    dict.set(t, id);
    added.push(t);
  }
  return id;
};

parentPort.on('message', ({ page, text }) => {
  const { fields, offsets } = pageTerms(analyzer, page, text === true ? page.content : text, workerData.maxTokens);
  const { stream, titleLength, anchor, url, heading } = fields;
  // In the order the writer meets them: title, anchor, content, url, heading.
  const ids = new Uint32Array(stream.length + anchor.length + url.length + heading.length);
  let k = 0;
  for (let i = 0; i < titleLength; i++) ids[k++] = idOf(stream[i]);
  for (const t of anchor) ids[k++] = idOf(t);
  for (let i = titleLength; i < stream.length; i++) ids[k++] = idOf(stream[i]);
  for (const t of url) ids[k++] = idOf(t);
  for (const t of heading) ids[k++] = idOf(t);
  const lengths = [titleLength, anchor.length, stream.length - titleLength, url.length, heading.length];
  const off = offsets && new Uint8Array(offsets);
  parentPort.postMessage({ words: added, ids, lengths, offsets: off }, off ? [ids.buffer, off.buffer] : [ids.buffer]);
  added = [];
});

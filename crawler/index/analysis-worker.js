// An analysis thread of crawler/index/analysis-pool.ts: analyzes the pages it is sent, in order, and
// answers each with its terms as ids in a dictionary of its own (the words it adds go along with the
// answer that first uses them) and its summary offsets, both in one buffer. The indexer hands the
// buffers back with later pages, so a page's answer reuses an earlier one's memory instead of
// leaving the main thread a buffer a page for its collector.
import { parentPort, workerData } from 'node:worker_threads';
import { requireTs } from '../../shared/require-ts.js';

const { Analyzer } = requireTs(new URL('../../shared/analysis/analyzer.ts', import.meta.url));
const { pageTerms } = requireTs(new URL('./page-terms.ts', import.meta.url));

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
/** Buffers handed back, to answer in. */
const spare = [];

parentPort.on('message', ({ page, text, returned }) => {
  for (const b of returned) spare.push(b);
  const { fields, offsets } = pageTerms(analyzer, page, text === true ? page.content : text, workerData.maxTokens);
  const { stream, titleLength, anchor, url, heading } = fields;
  const n = stream.length + anchor.length + url.length + heading.length;
  const need = 4 * n + (offsets ? offsets.length : 0);
  let buf = spare.pop();
  // With room to spare, so that the buffers in circulation soon fit any page.
  if (!buf || buf.byteLength < need) buf = new ArrayBuffer(need + (need >> 1));
  // In the order the writer meets them: title, anchor, content, url, heading.
  const ids = new Uint32Array(buf, 0, n);
  let k = 0;
  for (let i = 0; i < titleLength; i++) ids[k++] = idOf(stream[i]);
  for (const t of anchor) ids[k++] = idOf(t);
  for (let i = titleLength; i < stream.length; i++) ids[k++] = idOf(stream[i]);
  for (const t of url) ids[k++] = idOf(t);
  for (const t of heading) ids[k++] = idOf(t);
  if (offsets) new Uint8Array(buf, 4 * n, offsets.length).set(offsets);
  const lengths = [titleLength, anchor.length, stream.length - titleLength, url.length, heading.length];
  parentPort.postMessage({ words: added, buf, lengths, offsets: offsets ? offsets.length : -1 }, [buf]);
  added = [];
});

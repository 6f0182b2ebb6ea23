// An analysis thread of crawler/index/analysis-pool.ts: analyzes the pages it is sent, in order, and
// answers each with its entries (shared/index/entries.ts) with term ids in a dictionary of its own (the
// words it adds go along with the answer that first uses them) and its summary offsets.
import { parentPort, workerData } from 'node:worker_threads';
import { requireTs } from '../../shared/require-ts.js';

const { Analyzer } = requireTs(new URL('../../shared/analysis/analyzer.ts', import.meta.url));
const { EntryBuilder } = requireTs(new URL('../../shared/index/entries.ts', import.meta.url));
const { pageTerms } = requireTs(new URL('./page-terms.ts', import.meta.url));

const analyzer = new Analyzer(workerData.analyzer);
const builder = new EntryBuilder();
const dict = new Map();
let added = [];
const ids = (terms, from = 0, to = terms.length) => {
  const out = new Uint32Array(to - from);
  for (let i = from; i < to; i++) {
    const t = terms[i];
    let id = dict.get(t);
    if (id === undefined) {
      id = dict.size;
      dict.set(t, id);
      added.push(t);
    }
    out[i - from] = id;
  }
  return out;
};

parentPort.on('message', ({ page, text }) => {
  const { fields, offsets } = pageTerms(analyzer, page, text === true ? page.content : text, workerData.maxTokens);
  const { stream, titleLength, anchor, url, heading } = fields;
  // In the order the writer would meet them: title, anchor, content, url, heading.
  const title = ids(stream, 0, titleLength);
  const anchorIds = ids(anchor);
  const entries = builder.build({ title, anchor: anchorIds, content: ids(stream, titleLength), url: ids(url), heading: ids(heading) });
  const off = offsets && new Uint8Array(offsets);
  // The entries' arrays are views of one buffer, posted bare.
  const buffer = entries.terms.buffer;
  parentPort.postMessage({ words: added, buffer, offsets: off }, off ? [buffer, off.buffer] : [buffer]);
  added = [];
});

/**
 * @module searcher/summary-windows
 * The windows around a summary's hits (searcher/summary.ts), found in one
 * pass over the hits, as columns reused from one summary to the next
 * (summaries are made one at a time): a page's hits make no object each.
 */
import type { KeptWords, WordRanges } from './summary-words.js';

/**
 * Window w spans kept words from[w]..to[w] in run run[w], with terms[w]
 * distinct query terms (-1 once chosen) among hits[w] hits; `hitWords` are
 * the kept words of the hits, in order (the summary marks them), `hitCount`
 * of them. Read after windowsOf(), until the next summary.
 */
export const win = {
  from: new Int32Array(64),
  to: new Int32Array(64),
  run: new Int32Array(64),
  terms: new Int32Array(64),
  hits: new Int32Array(64),
  hitWords: new Int32Array(256),
  hitCount: 0,
};
/** Per distinct term of the page (in `distinct`), the window it was last counted in: a term counts once a window. */
const distinct: string[] = [];
const countedIn: number[] = [];

function grown(a: Int32Array<ArrayBuffer>, n: number): Int32Array<ArrayBuffer> {
  if (n < a.length) return a;
  const b = new Int32Array(2 * n);
  b.set(a);
  return b;
}

/**
 * The windows of the kept hits in one pass: a hit joins the last window when
 * it is in its run, its context touches it and the window stays under
 * `length` words; it counts in the last window when it lies inside it; else
 * it opens a window. Returns the number of windows; `win.hitWords` holds the
 * kept hits, `win.hitCount` of them.
 */
export function windowsOf(kept: KeptWords, src: WordRanges, context: number, length: number): number {
  const { stretchWord, stretchToken } = kept;
  const stretches = stretchToken.length;
  distinct.length = 0;
  countedIn.length = 0;
  win.hitCount = 0;
  let nw = 0;
  let k = -1;
  let run = 0;
  for (let h = 0; h < src.hits.length; h++) {
    // The hit's kept word: the hits come in token order, so one pointer walks the stretches.
    const t = src.hits[h]!;
    while (k + 1 < stretches && stretchToken[k + 1]! <= t) k++;
    if (k < 0) continue;
    const i = stretchWord[k]! + t - stretchToken[k]!;
    if (i >= (k + 1 < stretches ? stretchWord[k + 1]! : kept.count)) continue;
    let term = distinct.indexOf(src.terms[h]!);
    if (term < 0) (term = distinct.push(src.terms[h]!) - 1), countedIn.push(-1);
    win.hitWords = grown(win.hitWords, win.hitCount);
    win.hitWords[win.hitCount++] = i;
    run = kept.runOf(i, run);
    const to = Math.min(kept.runEnd(run), i + context);
    let w = nw - 1;
    if (w >= 0 && win.run[w] === run && i - context <= win.to[w]! + 1 && to - win.from[w]! < length) win.to[w] = to;
    else if (w < 0 || i > win.to[w]!) {
      if (nw === win.from.length) {
        win.from = grown(win.from, nw);
        win.to = grown(win.to, nw);
        win.run = grown(win.run, nw);
        win.terms = grown(win.terms, nw);
        win.hits = grown(win.hits, nw);
      }
      win.from[nw] = Math.max(kept.runStart(run), i - context, w >= 0 ? win.to[w]! + 1 : 0);
      win.to[nw] = to;
      win.run[nw] = run;
      win.terms[nw] = 0;
      win.hits[nw] = 0;
      w = nw++;
    }
    // Else the hit sits inside a full window: it counts there, no overlapping window.
    if (countedIn[term] !== w) ((countedIn[term] = w), win.terms[w]!++);
    win.hits[w]!++;
  }
  return nw;
}


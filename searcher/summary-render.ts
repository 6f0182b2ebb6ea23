/**
 * @module searcher/summary-render
 * A summary window's words as parts: the original text between the hits
 * with its whitespace squeezed, and each hit a part of its own to mark.
 */
import { lowerBound } from '../shared/bisect.js';
import type { Summary, SummaryText } from './summary.js';
import { win } from './summary-windows.js';
import type { KeptWords } from './summary-words.js';

/** The original text of kept words from..to, split into plain and highlighted parts, added to `out`. */
export function render(text: SummaryText, starts: ArrayLike<number>, ends: ArrayLike<number>, kept: KeptWords, from: number, to: number, out: Summary): void {
  const { stretchWord, stretchToken } = kept;
  // The stretch of word `from`; words go in order, so one pointer walks the stretches.
  let k = lowerBound(stretchWord, from + 1) - 1;
  const token = (i: number) => {
    while (k + 1 < stretchWord.length && stretchWord[k + 1]! <= i) k++;
    return stretchToken[k]! + i - stretchWord[k]!;
  };
  let pos = starts[token(from)]!;
  // Hits in the window, in order: one pointer walks them.
  let h = lowerBound(win.hitWords.subarray(0, win.hitCount), from);
  for (let i = from; i <= to; i++) {
    const t = token(i);
    const start = starts[t]!;
    const hit = h < win.hitCount && win.hitWords[h] === i;
    if (hit) h++;
    // The parts of a camelCase word share its span: it is shown once.
    if (!hit || start < pos) continue;
    if (start > pos) out.push({ text: squeeze(text.slice(pos, start)) });
    const end = ends[t]!;
    out.push({ text: text.slice(start, end), highlight: true });
    pos = end;
  }
  const end = ends[token(to)]!;
  if (end > pos) out.push({ text: squeeze(text.slice(pos, end)) });
}

/** Runs of whitespace as one space; most pieces of text have none to squeeze, and are seen to have none without a regular expression. */
function squeeze(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 32 ? i + 1 < s.length && s.charCodeAt(i + 1) === 32 : c < 33 || c > 126) return s.replace(/\s+/g, ' ');
  }
  return s;
}

/**
 * @module searcher/summary-render
 * A summary window's words as parts: the original text between the hits
 * with its whitespace squeezed, each hit a part of its own to mark, and the
 * page's structure kept where the window crosses it: the end of a heading
 * and a line break of code (LINE_BREAK in the parse text) are each a break
 * part, so a heading does not run into the text after it and code keeps its
 * lines. A window without either gives exactly the parts it always gave.
 */
import { lowerBound } from '../shared/bisect.js';
import { LINE_BREAK } from '../segments/records.js';
import type { Summary, SummaryPlan, SummaryText } from './summary.js';
import { win } from './summary-windows.js';
import type { KeptWords } from './summary-words.js';


/** The original text of kept words from..to, split into plain and highlighted parts and breaks, added to `out`. */
export function render(text: SummaryText, starts: ArrayLike<number>, ends: ArrayLike<number>, kept: KeptWords, from: number, to: number, out: Summary, headings?: SummaryPlan['headings']): void {
  const { stretchWord, stretchToken } = kept;
  // The stretch of word `from`; words go in order, so one pointer walks the stretches.
  let k = lowerBound(stretchWord, from + 1) - 1;
  const token = (i: number) => {
    while (k + 1 < stretchWord.length && stretchWord[k + 1]! <= i) k++;
    return stretchToken[k]! + i - stretchWord[k]!;
  };
  let pos = starts[token(from)]!;
  // Looked up apart: `token` walks forward only.
  const last = ends[kept.token(to)]!;
  const plain = new Plain(text, headings ? headingEnds(headings, pos, last) : [], out);
  // Hits in the window, in order: one pointer walks them.
  let h = lowerBound(win.hitWords.subarray(0, win.hitCount), from);
  for (let i = from; i <= to; i++) {
    const t = token(i);
    const start = starts[t]!;
    const hit = h < win.hitCount && win.hitWords[h] === i;
    if (hit) h++;
    // The parts of a camelCase word share its span: it is shown once.
    if (!hit || start < pos) continue;
    if (start > pos) plain.add(pos, start);
    const end = ends[t]!;
    out.push({ text: text.slice(start, end), highlight: true });
    pos = end;
  }
  if (last > pos) plain.add(pos, last);
}

/**
 * The ends of the headings that end inside the text [from, to), in order: the
 * heading of the section the window starts in and those starting inside it
 * (a window seldom crosses a section start; only these headings are read).
 */
function headingEnds(headings: NonNullable<SummaryPlan['headings']>, from: number, to: number): number[] {
  const out: number[] = [];
  let before = -1;
  headings.starts.forEach((s, k) => {
    if (s <= from && (before < 0 || s >= headings.starts[before]!)) before = k;
    else if (s > from && s < to) out.push(headings.end(k));
  });
  if (before >= 0) out.push(headings.end(before));
  return out.filter((e) => e >= from && e < to).sort((a, b) => a - b);
}

/** The text between hits as parts, with a break at each heading end and each line break of code. */
class Plain {
  private next = 0;

  constructor(
    private readonly text: SummaryText,
    private readonly headingEnds: readonly number[],
    private readonly out: Summary,
  ) {}

  /** The text [from, to): no heading ends inside a word, so every end is met by the span it is in. */
  add(from: number, to: number): void {
    const ends = this.headingEnds;
    let at = from;
    for (; this.next < ends.length && ends[this.next]! < to; this.next++) {
      const e = ends[this.next]!;
      if (e < at) continue;
      this.lines(this.text.slice(at, e));
      this.out.push({ break: 'heading' });
      at = e;
    }
    this.lines(this.text.slice(at, to));
  }

  private lines(s: string): void {
    let t = squeeze(s);
    // The space after a break is the break's own.
    if (t.charCodeAt(0) === 32 && 'break' in (this.out[this.out.length - 1] ?? {})) t = t.slice(1);
    if (!t.includes(LINE_BREAK)) {
      if (t) this.out.push({ text: t });
      return;
    }
    t.split(LINE_BREAK).forEach((line, i) => {
      if (i > 0) this.out.push({ break: 'line' });
      if (line) this.out.push({ text: line });
    });
  }
}

/** Runs of whitespace as one space, or one line break when they hold one; most pieces of text have none to squeeze, and are seen to have none without a regular expression. */
function squeeze(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 32 ? i + 1 < s.length && s.charCodeAt(i + 1) === 32 : c < 33 || c > 126) return s.replace(/\s+/g, (run) => (run.includes(LINE_BREAK) ? LINE_BREAK : ' '));
  }
  return s;
}

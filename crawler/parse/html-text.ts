/**
 * @module crawler/parse/html-text
 * The page text as the HTML parser streams it: pieces appended between
 * block boundaries ("runs"), whitespace squeezed as they come, so the text
 * is one join at the end. Positions taken while streaming (`mark`) are
 * character offsets into the final text, so headings and page furniture can
 * be located in the stored parse text without a second pass. A run is
 * furniture when it sits inside a menu-like element or is (almost) all link
 * text: "Prev Up SQL Commands Home Next".
 *
 * In preformatted text (code) a whitespace run that holds a line break is
 * LINE_BREAK (segments/records.ts) instead of a space: one character still, so no offset moves,
 * and a character no other text holds, so a summary can show code's lines
 * where a PDF's hard line breaks stay spaces.
 */

import { LINE_BREAK } from '../../segments/records.js';

const LINE_BREAK_CODE = LINE_BREAK.charCodeAt(0);
const HAS_NEWLINE = /[\n\r\u2028]/;

/** Whitespace runs as one space, none at either end: for short strings read whole (a title, an anchor, a meta). */
export const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Share of a run's characters that are link text above which the run is a menu. */
const LINK_DENSITY = 0.8;

/** True for the characters `/\s/` matches. */
function isSpace(c: number): boolean {
  return (
    c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
  );
}

/** A piece that is not already whitespace-squeezed: whitespace other than a space, or two in a row. */
const UNSQUEEZED = /[^\S ]| {2}/;
const VISIBLE = /\S/;
/** Pieces up to this long are looked at a character at a time; a regular expression pays off on longer ones. */
const SHORT_PIECE = 48;

/**
 * A piece of streamed text as the sinks take it: its whitespace runs as
 * single spaces (a new string only when a run needs squeezing, which most
 * prose does not), and whether it shows anything. One piece serves both sinks.
 */
export class TextPiece {
  text = '';
  visible = false;

  /** Takes the next piece; `lines` in preformatted text, whose line breaks are kept. */
  set(t: string, lines = false): void {
    if (lines && HAS_NEWLINE.test(t)) {
      this.text = t.replace(/\s+/g, (run) => (HAS_NEWLINE.test(run) ? LINE_BREAK : ' '));
      this.visible = VISIBLE.test(this.text);
      return;
    }
    if (t.length > SHORT_PIECE) {
      this.text = UNSQUEEZED.test(t) ? t.replace(/\s+/g, ' ') : t;
      this.visible = VISIBLE.test(this.text);
      return;
    }
    let squeeze = false;
    let visible = false;
    let space = false;
    for (let i = 0; i < t.length; i++) {
      const c = t.charCodeAt(i);
      if ((c > 32 && c < 0xa0) || !isSpace(c)) {
        visible = true;
        space = false;
      } else {
        if (c !== 32 || space) squeeze = true;
        space = true;
      }
    }
    this.text = !squeeze ? t : visible ? t.replace(/\s+/g, ' ') : ' ';
    this.visible = visible;
  }
}

/** Characters of a squeezed piece that are not spaces. */
function visibleChars(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) !== 32 && s.charCodeAt(i) !== LINE_BREAK_CODE) n++;
  return n;
}

/** Ranges cut to a text of `length`, sorted, those touching or apart by a space only made one. */
function mergeRanges(ranges: readonly [number, number][], length: number): [number, number][] {
  const sorted = ranges
    .map(([a, b]): [number, number] => [Math.min(a, length), Math.min(b, length)])
    .filter(([a, b]) => b > a)
    .sort((x, y) => x[0] - y[0]);
  const merged: [number, number][] = [];
  for (const r of sorted) {
    const last = merged[merged.length - 1];
    if (last && r[0] <= last[1] + 1) last[1] = Math.max(last[1], r[1]);
    else merged.push(r);
  }
  return merged;
}

export class TextSink {
  /** The text so far, in pieces: no space at its start, single spaces between words. */
  private readonly pieces: string[] = [];
  private length = 0;
  /** A space is due before the next word. */
  private space = false;
  /** The space due is a line break of preformatted text. */
  private lineBreak = false;
  private runStart = 0;
  private runVisible = false;
  private runLinkChars = 0;
  /** The run's visible pieces outside links, counted only when its share of link text is asked. */
  private readonly runOther: string[] = [];
  private runFurniture = false;
  /** Ranges of text offsets, [from, to), possibly past its end. */
  private readonly furniture: [number, number][] = [];
  /** Ranges of code (`<pre>`), likewise. */
  private readonly code: [number, number][] = [];

  /** A piece of text as the parser streams it. */
  push(piece: TextPiece, link: boolean, furniture: boolean): void {
    this.append(piece.text);
    if (!piece.visible) return;
    this.runVisible = true;
    if (link) this.runLinkChars += visibleChars(piece.text);
    else this.runOther.push(piece.text);
    if (furniture) this.runFurniture = true;
  }

  /** A block element opens or closes: the words on either side stay apart (on lines of their own around code, `lineBreak`), and a run ends. */
  boundary(lineBreak = false): void {
    this.endRun();
    this.space = true;
    this.lineBreak ||= lineBreak;
    this.runStart = this.mark();
  }

  /** Marks the furniture range [from, to) of marks, e.g. a heading that repeats the title. */
  addFurniture(from: number, to: number): void {
    if (to > from) this.furniture.push([from, to]);
  }

  /** Marks the code range [from, to) of marks: a `<pre>` block. */
  addCode(from: number, to: number): void {
    if (to > from) this.code.push([from, to]);
  }

  /** Where the next word will start in the text (past its end if none follows). */
  mark(): number {
    return this.length + (this.space && this.length > 0 ? 1 : 0);
  }

  /** The squeezed, trimmed text; `marks` as offsets into it; furniture and code as merged offset ranges. */
  build(marks: readonly number[]): { text: string; offsets: number[]; furniture: [number, number][]; code: [number, number][] } {
    this.endRun();
    const out = this.pieces.join('');
    const clamp = (i: number) => Math.min(i, out.length);
    return { text: out, offsets: marks.map(clamp), furniture: mergeRanges(this.furniture, out.length), code: mergeRanges(this.code, out.length) };
  }

  /** A squeezed piece: its words after a single space (or line break) where one is due, none at the start. */
  private append(part: string): void {
    if (part === '') return;
    if (part === ' ' || part === LINE_BREAK) {
      this.space = true;
      this.lineBreak ||= part === LINE_BREAK;
      return;
    }
    const first = part.charCodeAt(0);
    const last = part.charCodeAt(part.length - 1);
    const lead = first === 32 || first === LINE_BREAK_CODE;
    const trail = last === 32 || last === LINE_BREAK_CODE;
    if ((this.space || lead) && this.length > 0) {
      this.pieces.push(this.lineBreak || first === LINE_BREAK_CODE ? LINE_BREAK : ' ');
      this.length++;
    }
    const core = lead || trail ? part.slice(lead ? 1 : 0, trail ? part.length - 1 : part.length) : part;
    this.pieces.push(core);
    this.length += core.length;
    this.space = trail;
    this.lineBreak = last === LINE_BREAK_CODE;
  }

  private endRun(): void {
    if (this.runVisible && (this.runFurniture || this.mostlyLinks())) this.furniture.push([this.runStart, this.mark()]);
    this.runStart = this.mark();
    this.runVisible = false;
    this.runLinkChars = 0;
    this.runOther.length = 0;
    this.runFurniture = false;
  }

  /** Whether link text is at least LINK_DENSITY of the run's characters; the rest is counted only as far as it takes to tell. */
  private mostlyLinks(): boolean {
    const link = this.runLinkChars;
    if (link === 0) return false;
    // Past this many other characters the share is below LINK_DENSITY, whatever follows.
    const enough = (link * (1 - LINK_DENSITY)) / LINK_DENSITY + 1;
    let other = 0;
    for (const t of this.runOther) {
      other += visibleChars(t);
      if (other > enough) return false;
    }
    return link >= LINK_DENSITY * (link + other);
  }
}

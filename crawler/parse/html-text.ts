/**
 * @module crawler/parse/html-text
 * The page text as the HTML parser streams it: pieces appended between
 * block boundaries ("runs"), whitespace squeezed at the end. Positions taken
 * while streaming (`mark`) become character offsets into the final text, so
 * headings and page furniture can be located in the stored parse text
 * without a second pass. A run is furniture when it sits inside a menu-like
 * element or is (almost) all link text: "Prev Up SQL Commands Home Next".
 */

/** Share of a run's characters that are link text above which the run is a menu. */
const LINK_DENSITY = 0.8;

/** True for the characters `/\s/` matches. */
function isSpace(c: number): boolean {
  return (
    c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
  );
}

/**
 * A piece of streamed text as the sinks take it: its whitespace runs as
 * single spaces, and how many of its characters are not whitespace. One scan
 * of the piece; a new string only when a run needs squeezing (most prose has
 * none), and one piece serves both sinks.
 */
export class TextPiece {
  text = '';
  chars = 0;

  set(t: string): void {
    let chars = 0;
    let squeeze = false;
    let space = false;
    for (let i = 0; i < t.length; i++) {
      const c = t.charCodeAt(i);
      if (c > 32 && c < 0xa0) {
        chars++;
        space = false;
      } else if (isSpace(c)) {
        if (c !== 32 || space) squeeze = true;
        space = true;
      } else {
        chars++;
        space = false;
      }
    }
    this.text = squeeze ? t.replace(/\s+/g, ' ') : t;
    this.chars = chars;
  }
}

export class TextSink {
  private readonly parts: string[] = [];
  private runStart = 0;
  private runChars = 0;
  private runLinkChars = 0;
  private runFurniture = false;
  /** Ranges of part indexes, [from, to). */
  private readonly furniture: [number, number][] = [];

  /** A piece of text as the parser streams it (squeezed by `TextPiece`, so `build` only joins). */
  push(piece: TextPiece, link: boolean, furniture: boolean): void {
    this.parts.push(piece.text);
    if (piece.chars === 0) return;
    this.runChars += piece.chars;
    if (link) this.runLinkChars += piece.chars;
    if (furniture) this.runFurniture = true;
  }

  /** A block element opens or closes: the words on either side stay apart, and a run ends. */
  boundary(): void {
    this.endRun();
    // Boundaries in a row stand for one space.
    if (this.parts[this.parts.length - 1] !== ' ') this.parts.push(' ');
    this.runStart = this.parts.length;
  }

  /** Marks the furniture range [from, to) of part indexes, e.g. a heading that repeats the title. */
  addFurniture(from: number, to: number): void {
    if (to > from) this.furniture.push([from, to]);
  }

  /** The current position, turned into a text offset by `build`. */
  mark(): number {
    return this.parts.length;
  }

  /** The squeezed, trimmed text; `marks` as offsets into it; furniture as merged offset ranges. */
  build(marks: readonly number[]): { text: string; offsets: number[]; furniture: [number, number][] } {
    this.endRun();
    const { parts } = this;
    /** The text offset each part index stands for. */
    const at = new Int32Array(parts.length + 1);
    const pieces: string[] = [];
    let length = 0;
    let space = false;
    for (let i = 0; i < parts.length; i++) {
      at[i] = length + (space && length > 0 ? 1 : 0);
      const part = parts[i]!;
      if (part === '') continue;
      if (part === ' ') {
        space = true;
        continue;
      }
      const lead = part.charCodeAt(0) === 32;
      const trail = part.charCodeAt(part.length - 1) === 32;
      if ((space || lead) && length > 0) {
        pieces.push(' ');
        length++;
      }
      const core = lead || trail ? part.slice(lead ? 1 : 0, trail ? part.length - 1 : part.length) : part;
      pieces.push(core);
      length += core.length;
      space = trail;
    }
    at[parts.length] = length + (space && length > 0 ? 1 : 0);
    const out = pieces.join('');
    const clamp = (i: number) => Math.min(at[i]!, out.length);
    const ranges = this.furniture
      .map(([a, b]): [number, number] => [clamp(a), clamp(b)])
      .filter(([a, b]) => b > a)
      .sort((x, y) => x[0] - y[0]);
    const merged: [number, number][] = [];
    for (const r of ranges) {
      const last = merged[merged.length - 1];
      // Furniture separated by a space only is one range.
      if (last && r[0] <= last[1] + 1) last[1] = Math.max(last[1], r[1]);
      else merged.push(r);
    }
    return { text: out, offsets: marks.map(clamp), furniture: merged };
  }

  private endRun(): void {
    if (this.runChars > 0 && (this.runFurniture || this.runLinkChars >= LINK_DENSITY * this.runChars))
      this.furniture.push([this.runStart, this.parts.length]);
    this.runStart = this.parts.length;
    this.runChars = 0;
    this.runLinkChars = 0;
    this.runFurniture = false;
  }
}

/**
 * @module crawler/parse/html-headings
 * A page's sections as the HTML walk meets them: each heading with its text
 * offset and the id a link can point at — its own, an enclosing
 * `<section id>`'s, or an empty `<a id>`/`<a name>` just before it — and
 * definition entries (`<dt>`) as sections below h6 when they have an id.
 * A heading inside navigation or furniture ("Navigation", "Quick search" in
 * a sidebar) is no section, and one repeating the title is furniture: the
 * summary shows the title already. Offsets are marks in the page's text
 * sinks taken while streaming, so no second pass is needed.
 */
import type { PageSection } from '../../segments/segment.js';
import { DEFINITION_LEVEL, ENDS_HEADING, HEADING } from './html-elements.js';
import { squash, type TextSink } from './html-text.js';

/** A heading with its start and end in both texts (the end once closed), and the depth it closes at. */
interface Heading {
  level: number;
  id?: string;
  parts: string[];
  at: number;
  text: [number, number];
  content: [number, number];
}

/** Trailing permalink marks ("File system#", "Syntax¶") are not part of a heading. */
export const headingText = (parts: string[]) => squash(parts.join('')).replace(/\s*[#¶§]+$/, '');

/** A heading that says what the title says is furniture: the summary shows the title already. */
export function repeatsTitle(heading: string, title: string): boolean {
  const h = heading.toLowerCase();
  const t = title.toLowerCase();
  return h !== '' && t !== '' && (h === t || t.startsWith(h) || h.startsWith(t));
}

export class Headings {
  private readonly list: Heading[] = [];
  private heading: Heading | null = null;
  /** Enclosing sections with an id, not yet given to a heading. */
  private readonly sectionIds: { at: number; id: string }[] = [];
  /** An empty `<a id>` or `<a name>` just before a heading names it. */
  private pendingAnchor: string | null = null;

  /** `text` is the whole page text, `content` the text without navigation. */
  constructor(
    private readonly text: TextSink,
    private readonly content: TextSink,
  ) {}

  /** An element opens at `depth`; `aside` when inside navigation or furniture, where it starts no section. */
  open(name: string, a: Record<string, string>, depth: number, aside: boolean): void {
    const id = a.id?.trim() || (name === 'a' ? a.name?.trim() : undefined) || undefined;
    const level = HEADING.exec(name);
    // A heading left open (`<h2>Documentation</h1>`) ends where a block or the next heading starts, as in a browser.
    if (this.heading && (level || ENDS_HEADING.has(name))) this.end();
    if ((level || name === 'dt') && !this.heading && !aside) {
      const section = level ? this.sectionIds.pop() : undefined;
      this.heading = {
        level: level ? Number(level[1]) : DEFINITION_LEVEL,
        id: id ?? this.pendingAnchor ?? section?.id,
        parts: [],
        at: depth,
        text: [this.text.mark(), 0],
        content: [this.content.mark(), 0],
      };
    } else if (this.heading && id) this.heading.id ??= id;
    else if (id && (name === 'section' || /\bsect(?:ion|\d)\b/.test(a.class ?? ''))) this.sectionIds.push({ at: depth, id });
    this.pendingAnchor = name === 'a' && id && a.href === undefined ? id : level ? null : this.pendingAnchor;
  }

  /** Text as the walk streams it; `visible` when it shows anything, which ends an anchor's claim to name the next heading. */
  addText(t: string, visible: boolean): void {
    this.heading?.parts.push(t);
    if (visible) this.pendingAnchor = null;
  }

  /** An element closes at `depth`: the heading and the sections that opened there. */
  close(depth: number): void {
    if (this.heading && depth === this.heading.at) this.end();
    while (this.sectionIds.length && this.sectionIds[this.sectionIds.length - 1]!.at >= depth) this.sectionIds.pop();
  }

  /**
   * The page text — without navigation when `withoutNavigation` and there is
   * content left — its sections, its furniture and its code, once the page has ended.
   */
  finishText(title: string, withoutNavigation: boolean): { text: string; furniture: [number, number][]; code: [number, number][]; sections: PageSection[] } {
    this.end();
    let built = withoutNavigation ? this.build(this.content, (h) => h.content, title) : null;
    if (!built?.text) built = this.build(this.text, (h) => h.text, title);
    const sections = this.list.flatMap((h, i) => {
      const heading = headingText(h.parts);
      if (!heading || (h.level === DEFINITION_LEVEL && !h.id)) return [];
      const s: PageSection = { heading, level: h.level, offset: built.offsets[i]! };
      if (h.id) s.id = h.id;
      return [s];
    });
    return { text: built.text, furniture: built.furniture, code: built.code, sections };
  }

  private build(sink: TextSink, span: (h: Heading) => [number, number], title: string) {
    for (const h of this.list) if (repeatsTitle(headingText(h.parts), title)) sink.addFurniture(...span(h));
    return sink.build(this.list.map((h) => span(h)[0]));
  }

  private end(): void {
    if (!this.heading) return;
    this.heading.text[1] = this.text.mark();
    this.heading.content[1] = this.content.mark();
    this.list.push(this.heading);
    this.heading = null;
  }
}

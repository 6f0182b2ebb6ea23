/**
 * @module shared/xml
 * hazelnut's one XML reader, a small hand-written one read as a stream of
 * events. Strictly for its own files (`hazelnut-*.xml`,
 * `regex-normalize.xml`, the credentials file): it refuses malformed input
 * and says on which line, so a typo in a site file is an error instead of
 * a silently ignored property. Forgivingly for sitemaps, which come off the
 * web broken or cut off: it reads what it can. Every command reads its
 * configuration, so a general parser here (htmlparser2) would cost every
 * command's start the CPU of importing it (`npm run bench -- sitemap`
 * measures both); pages are HTML and stay with htmlparser2 in the
 * parse-html plugin.
 */
import { HzError } from './errors.js';

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  /** Concatenated character data directly inside this element. */
  text: string;
  line: number;
}

export class XmlSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** `s` with its references decoded; a bad one is an error in a strict reading and stays as written in a forgiving one. */
function decodeEntities(s: string, line: number, strict: boolean): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);|&/g, (m, ent: string | undefined, offset: number) => {
    // `line` is where the text starts; the error belongs to the line of the `&` itself.
    const at = () => line + (s.slice(0, offset).match(/\n/g)?.length ?? 0);
    if (ent === undefined) {
      if (strict) throw new XmlSyntaxError("bare '&' (write &amp;)", at());
      return m;
    }
    if (ent.startsWith('#')) {
      const cp = ent.startsWith('#x') ? parseInt(ent.slice(2), 16) : parseInt(ent.slice(1), 10);
      if (cp > 0 && cp <= 0x10ffff) return String.fromCodePoint(cp);
      if (strict) throw new XmlSyntaxError(`invalid character reference &${ent};`, at());
      return m;
    }
    const v = ENTITIES[ent];
    if (v !== undefined) return v;
    if (strict) throw new XmlSyntaxError(`unknown entity &${ent};`, at());
    return m;
  });
}

/** A start tag with its attributes, matched where it stands (sticky): however long, never a copy of the rest of the file. */
const TAG = /<([A-Za-z_][\w.:-]*)((?:\s+[A-Za-z_][\w.:-]*\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/y;
/** A start tag as a forgiving reading takes it: a name, then anything up to `>` (unquoted or bare attributes are not read). */
const LOOSE_TAG = /<([A-Za-z_][\w.:-]*)[^>]*?(\/?)>/y;

/** What a reading reports, in document order. */
export interface XmlHandler {
  open(name: string, attrs: Record<string, string>, line: number): void;
  /** Character data, references decoded (CDATA as written). */
  text(text: string): void;
  /** `implied`: closed by a self-closing tag, an enclosing end tag or the end of the document, not by its own end tag. */
  close(name: string, implied: boolean): void;
}

/**
 * Reads a document as a stream of events, with no tree. Strict: anything
 * XML refuses throws an XmlSyntaxError on its line. With `forgiving`, as
 * what comes off the web must be read: a bad reference stays as
 * written, an end tag closes the elements left open inside it and one that
 * closes nothing open is passed over, a malformed tag is text, an
 * unterminated comment or section ends the document, and what is open at
 * the end is closed there.
 */
export function readXml(src: string, h: XmlHandler, opts: { forgiving?: boolean } = {}): void {
  const strict = !opts.forgiving;
  let i = 0;
  let line = 1;
  const open: { name: string; line: number }[] = [];
  let rooted = false;

  const advance = (to: number) => {
    for (let k = i; k < to; k++) if (src.charCodeAt(k) === 10) line++;
    i = to;
  };
  /** Where `marker` ends what starts at i; -1 when it never does (strict: an error). */
  const endOf = (marker: string, what: string) => {
    const end = src.indexOf(marker, i);
    if (end < 0 && strict) throw new XmlSyntaxError(`unterminated ${what}`, line);
    return end;
  };
  const text = (raw: string) => {
    if (open.length === 0 && strict && raw.trim()) throw new XmlSyntaxError('text outside the root element', line + (raw.slice(0, raw.search(/\S/)).match(/\n/g)?.length ?? 0));
    if (open.length > 0 || !strict) h.text(decodeEntities(raw, line, strict));
  };

  if (src.charCodeAt(0) === 0xfeff) i = 1;
  while (i < src.length) {
    const lt = src.indexOf('<', i);
    const textEnd = lt < 0 ? src.length : lt;
    if (textEnd > i) {
      text(src.slice(i, textEnd));
      advance(textEnd);
      continue;
    }
    const next = src.charCodeAt(i + 1);
    if (next === 47 /* </ */) {
      const end = endOf('>', 'closing tag');
      if (end < 0) break;
      closeTag(src.slice(i + 2, end).trim());
      advance(end + 1);
    } else if (next !== 33 /* <! */ && next !== 63 /* <? */) {
      TAG.lastIndex = i;
      const m = TAG.exec(src);
      if (m) {
        startTag(m[1]!, m[2] ?? '', !!m[3]);
        advance(i + m[0].length);
        continue;
      }
      if (strict) throw new XmlSyntaxError('malformed tag', line);
      LOOSE_TAG.lastIndex = i;
      const loose = LOOSE_TAG.exec(src);
      if (loose) {
        startTag(loose[1]!, '', !!loose[2]);
        advance(i + loose[0].length);
      } else {
        text('<');
        advance(i + 1);
      }
    } else if (src.startsWith('<!--', i)) {
      const end = endOf('-->', 'comment');
      if (end < 0) break;
      advance(end + 3);
    } else if (src.startsWith('<![CDATA[', i)) {
      const end = endOf(']]>', 'CDATA section');
      if (end < 0) break;
      if (open.length === 0 && strict) throw new XmlSyntaxError('CDATA outside the root element', line);
      h.text(src.slice(i + 9, end));
      advance(end + 3);
    } else {
      // A processing instruction or a declaration (<!DOCTYPE …>).
      const pi = next === 63;
      const end = pi ? endOf('?>', 'processing instruction') : endOf('>', 'declaration');
      if (end < 0) break;
      advance(end + (pi ? 2 : 1));
    }
  }
  if (strict && open.length) {
    const last = open[open.length - 1]!;
    throw new XmlSyntaxError(`<${last.name}> opened on line ${last.line} is never closed`, line);
  }
  while (open.length) h.close(open.pop()!.name, true);
  if (strict && !rooted) throw new XmlSyntaxError('no root element', line);

  function startTag(name: string, rawAttrs: string, selfClosing: boolean): void {
    const attrs: Record<string, string> = {};
    if (rawAttrs) for (const a of rawAttrs.matchAll(/([A-Za-z_][\w.:-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) attrs[a[1]!] = decodeEntities(a[2] ?? a[3] ?? '', line, strict);
    if (open.length === 0 && rooted && strict) throw new XmlSyntaxError('a second root element', line);
    rooted = true;
    h.open(name, attrs, line);
    if (selfClosing) h.close(name, true);
    else open.push({ name, line });
  }

  function closeTag(name: string): void {
    const top = open[open.length - 1];
    if (strict) {
      if (!top) throw new XmlSyntaxError(`closing tag </${name}> without an opening tag`, line);
      if (top.name !== name) throw new XmlSyntaxError(`</${name}> closes <${top.name}> opened on line ${top.line}`, line);
    }
    let at = open.length - 1;
    while (at >= 0 && open[at]!.name !== name) at--;
    if (at < 0) return;
    while (open.length > at + 1) h.close(open.pop()!.name, true);
    h.close(open.pop()!.name, false);
  }
}

/** Parses a whole document strictly and returns its root element. */
export function parseXml(src: string): XmlElement {
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  readXml(src, {
    open(name, attrs, line) {
      const el: XmlElement = { name, attrs, children: [], text: '', line };
      const parent = stack[stack.length - 1];
      if (parent) parent.children.push(el);
      else root = el;
      stack.push(el);
    },
    text(t) {
      stack[stack.length - 1]!.text += t;
    },
    close() {
      stack.pop();
    },
  });
  return root!;
}

/** The first child element with this name, if any. */
export function child(el: XmlElement, name: string): XmlElement | undefined {
  return el.children.find((c) => c.name === name);
}

/** A configuration file's root element, which must be `<root>`; any problem is an HzError naming `file` and the line. */
export function parseConfXml(src: string, file: string, root: string): XmlElement {
  let el: XmlElement;
  try {
    el = parseXml(src);
  } catch (e) {
    if (e instanceof XmlSyntaxError) throw new HzError('HZ_ERR_CONF_XML', `${file}:${e.line}: ${e.message}`);
    throw e;
  }
  if (el.name !== root) throw new HzError('HZ_ERR_CONF_XML', `${file}:${el.line}: root element must be <${root}>, not <${el.name}>`);
  return el;
}

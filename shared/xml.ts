/**
 * @module shared/xml
 * A small strict XML reader for hazelnut's own configuration files
 * (`hazelnut-*.xml`, `regex-normalize.xml`). Unlike a forgiving HTML parser it
 * rejects malformed input and says on which line, so a typo in a site file is
 * an error instead of a silently ignored property. What comes off the web
 * (pages, sitemaps) is read forgivingly, as a stream, by htmlparser2; reading
 * the configuration with it too would cost every command's start the 35–85 ms
 * of importing it (`hazelnut readdb` took a third more CPU), for checks this
 * reader makes anyway.
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

function decodeEntities(s: string, line: number): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);|&/g, (m, ent: string | undefined, offset: number) => {
    // `line` is where the text starts; the error belongs to the line of the `&` itself.
    const at = line + (s.slice(0, offset).match(/\n/g)?.length ?? 0);
    if (ent === undefined) throw new XmlSyntaxError("bare '&' (write &amp;)", at);
    if (ent.startsWith('#')) {
      const cp = ent.startsWith('#x') ? parseInt(ent.slice(2), 16) : parseInt(ent.slice(1), 10);
      if (!(cp > 0 && cp <= 0x10ffff)) throw new XmlSyntaxError(`invalid character reference &${ent};`, at);
      return String.fromCodePoint(cp);
    }
    const v = ENTITIES[ent];
    if (v === undefined) throw new XmlSyntaxError(`unknown entity &${ent};`, at);
    return v;
  });
}

/** A start tag with its attributes, matched where it stands (sticky): however long, never a copy of the rest of the file. */
const TAG = /<([A-Za-z_][\w.:-]*)((?:\s+[A-Za-z_][\w.:-]*\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/y;

/** Parses a whole document and returns its root element. */
export function parseXml(src: string): XmlElement {
  let i = 0;
  let line = 1;
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;

  const advance = (to: number) => {
    for (let k = i; k < to; k++) if (src.charCodeAt(k) === 10) line++;
    i = to;
  };
  const expectEnd = (marker: string, what: string) => {
    const end = src.indexOf(marker, i);
    if (end < 0) throw new XmlSyntaxError(`unterminated ${what}`, line);
    return end;
  };

  if (src.charCodeAt(0) === 0xfeff) i = 1;
  while (i < src.length) {
    const lt = src.indexOf('<', i);
    const textEnd = lt < 0 ? src.length : lt;
    if (textEnd > i) {
      const raw = src.slice(i, textEnd);
      const top = stack[stack.length - 1];
      if (top) top.text += decodeEntities(raw, line);
      else if (raw.trim()) throw new XmlSyntaxError('text outside the root element', line + (raw.slice(0, raw.search(/\S/)).match(/\n/g)?.length ?? 0));
      advance(textEnd);
      continue;
    }
    if (src.startsWith('<!--', i)) {
      advance(expectEnd('-->', 'comment') + 3);
    } else if (src.startsWith('<![CDATA[', i)) {
      const end = expectEnd(']]>', 'CDATA section');
      const top = stack[stack.length - 1];
      if (!top) throw new XmlSyntaxError('CDATA outside the root element', line);
      top.text += src.slice(i + 9, end);
      advance(end + 3);
    } else if (src.startsWith('<?', i)) {
      advance(expectEnd('?>', 'processing instruction') + 2);
    } else if (src.startsWith('<!', i)) {
      advance(expectEnd('>', 'declaration') + 1);
    } else if (src.startsWith('</', i)) {
      const end = expectEnd('>', 'closing tag');
      const name = src.slice(i + 2, end).trim();
      const top = stack.pop();
      if (!top) throw new XmlSyntaxError(`closing tag </${name}> without an opening tag`, line);
      if (top.name !== name)
        throw new XmlSyntaxError(`</${name}> closes <${top.name}> opened on line ${top.line}`, line);
      advance(end + 1);
    } else {
      TAG.lastIndex = i;
      const m = TAG.exec(src);
      if (!m) throw new XmlSyntaxError('malformed tag', line);
      const el: XmlElement = { name: m[1]!, attrs: {}, children: [], text: '', line };
      for (const a of (m[2] ?? '').matchAll(/([A-Za-z_][\w.:-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g))
        el.attrs[a[1]!] = decodeEntities(a[2] ?? a[3] ?? '', line);
      const parent = stack[stack.length - 1];
      if (parent) parent.children.push(el);
      else if (root) throw new XmlSyntaxError('a second root element', line);
      else root = el;
      if (!m[3]) stack.push(el);
      advance(i + m[0].length);
    }
  }
  if (stack.length) {
    const open = stack[stack.length - 1]!;
    throw new XmlSyntaxError(`<${open.name}> opened on line ${open.line} is never closed`, line);
  }
  if (!root) throw new XmlSyntaxError('no root element', line);
  return root;
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

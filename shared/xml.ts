/**
 * @module shared/xml
 * The strict XML reader for hazelnut's own files (`hazelnut-*.xml`,
 * `regex-normalize.xml`, the credentials file). It reads with htmlparser2's
 * tokenizer, the one XML reader hazelnut has (sitemaps and HTML pages go
 * through it too, forgivingly), and adds what a configuration needs and a
 * web page must not: malformed input is rejected with the line it is on, so
 * a typo in a site file is an error instead of a silently ignored property.
 */
import { QuoteType, Tokenizer } from 'htmlparser2';
import { lowerBound } from './bisect.js';
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

const NAME = /^[A-Za-z_][\w.:-]*$/;

/** The line of each offset of `src`, from where its lines start. */
function lineCounter(src: string): (at: number) => number {
  const starts = [0];
  for (let i = src.indexOf('\n'); i >= 0; i = src.indexOf('\n', i + 1)) starts.push(i + 1);
  return (at) => lowerBound(starts, at + 1);
}

/**
 * Parses a whole document and returns its root element. htmlparser2's
 * tokenizer (the one that reads HTML pages and sitemaps) splits it; this
 * reader holds it to XML's rules, which a forgiving tokenizer lets pass:
 * names, quoted attribute values, entities, tags closed in order, one root,
 * comments and sections terminated.
 */
export function parseXml(src: string): XmlElement {
  const lineOf = lineCounter(src);
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  let opening: XmlElement | undefined;
  let attr = '';
  let value = '';
  const fail = (message: string, at: number): never => {
    throw new XmlSyntaxError(message, lineOf(at));
  };
  const terminated = (end: number, marker: string, what: string) => {
    if (!src.startsWith(marker, end)) fail(`unterminated ${what}`, end);
  };
  const place = (el: XmlElement) => {
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(el);
    else if (root) throw new XmlSyntaxError('a second root element', el.line);
    else root = el;
  };
  const tokenizer = new Tokenizer(
    { xmlMode: true, decodeEntities: false },
    {
      ontext(start, end) {
        const raw = src.slice(start, end);
        if (raw.includes('<')) fail('malformed tag', start + raw.indexOf('<'));
        const top = stack[stack.length - 1];
        if (top) top.text += decodeEntities(raw, lineOf(start));
        else if (raw.trim()) fail('text outside the root element', start + raw.search(/\S/));
      },
      oncdata(start, end, offset) {
        terminated(end - offset, ']]>', 'CDATA section');
        const top = stack[stack.length - 1];
        if (!top) fail('CDATA outside the root element', start);
        top!.text += src.slice(start, end - offset);
      },
      oncomment: (_start, end, offset) => terminated(end - offset, '-->', 'comment'),
      onprocessinginstruction: (_start, end) => terminated(src[end] === '?' ? end + 1 : end, '>', 'processing instruction'),
      ondeclaration: (_start, end) => terminated(end, '>', 'declaration'),
      onopentagname(start, end) {
        const name = src.slice(start, end);
        if (!NAME.test(name)) fail('malformed tag', start);
        opening = { name, attrs: {}, children: [], text: '', line: lineOf(start) };
      },
      onattribname(start, end) {
        attr = src.slice(start, end);
        value = '';
        if (!NAME.test(attr)) fail('malformed tag', start);
      },
      onattribdata(start, end) {
        value += src.slice(start, end);
      },
      onattribentity() {},
      ontextentity() {},
      onattribend(quote, end) {
        if (quote !== QuoteType.Double && quote !== QuoteType.Single) fail('malformed tag', end);
        opening!.attrs[attr] = decodeEntities(value, opening!.line);
      },
      onopentagend() {
        place(opening!);
        stack.push(opening!);
      },
      onselfclosingtag(end) {
        if (src[end - 1] !== '/') fail('malformed tag', end);
        place(opening!);
      },
      onclosetag(start, end) {
        const name = src.slice(start, end).trim();
        const top = stack.pop();
        if (!top) fail(`closing tag </${name}> without an opening tag`, start);
        if (top!.name !== name) fail(`</${name}> closes <${top!.name}> opened on line ${top!.line}`, start);
      },
      onend() {},
    },
  );
  tokenizer.write(src.charCodeAt(0) === 0xfeff ? ' ' + src.slice(1) : src);
  tokenizer.end();
  const open = stack[stack.length - 1];
  if (open) fail(`<${open.name}> opened on line ${open.line} is never closed`, src.length);
  if (!root) fail('no root element', src.length);
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

/**
 * @module shared/xml
 * The strict XML reader for hazelnut's own files (`hazelnut-*.xml`,
 * `regex-normalize.xml`, the credentials file). It reads with htmlparser2's
 * tokenizer, the one XML reader hazelnut has (sitemaps and HTML pages go
 * through it too, forgivingly), and adds what a configuration needs and a
 * web page must not: malformed input is rejected with the line it is on, so
 * a typo in a site file is an error instead of a silently ignored property.
 */
import { QuoteType, Tokenizer, type TokenizerCallbacks } from 'htmlparser2';
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
 * The tokenizer's events held to XML's rules, built into a tree: names,
 * quoted attribute values, entities, tags closed in order, one root, comments
 * and sections terminated. A forgiving tokenizer lets all of these pass.
 */
class TreeBuilder implements TokenizerCallbacks {
  private readonly stack: XmlElement[] = [];
  private readonly lineOf: (at: number) => number;
  private root: XmlElement | undefined;
  private opening: XmlElement | undefined;
  private attr = '';
  private value = '';

  constructor(private readonly src: string) {
    this.lineOf = lineCounter(src);
  }

  private fail(message: string, at: number): never {
    throw new XmlSyntaxError(message, this.lineOf(at));
  }

  private terminated(end: number, marker: string, what: string): void {
    if (!this.src.startsWith(marker, end)) this.fail(`unterminated ${what}`, end);
  }

  private get top(): XmlElement | undefined {
    return this.stack[this.stack.length - 1];
  }

  ontext(start: number, end: number): void {
    const raw = this.src.slice(start, end);
    if (raw.includes('<')) this.fail('malformed tag', start + raw.indexOf('<'));
    if (this.top) this.top.text += decodeEntities(raw, this.lineOf(start));
    else if (raw.trim()) this.fail('text outside the root element', start + raw.search(/\S/));
  }

  oncdata(start: number, end: number, offset: number): void {
    this.terminated(end - offset, ']]>', 'CDATA section');
    if (!this.top) this.fail('CDATA outside the root element', start);
    this.top.text += this.src.slice(start, end - offset);
  }

  oncomment(_start: number, end: number, offset: number): void {
    this.terminated(end - offset, '-->', 'comment');
  }

  onprocessinginstruction(_start: number, end: number): void {
    this.terminated(this.src[end] === '?' ? end + 1 : end, '>', 'processing instruction');
  }

  ondeclaration(_start: number, end: number): void {
    this.terminated(end, '>', 'declaration');
  }

  onopentagname(start: number, end: number): void {
    const name = this.src.slice(start, end);
    if (!NAME.test(name)) this.fail('malformed tag', start);
    this.opening = { name, attrs: {}, children: [], text: '', line: this.lineOf(start) };
  }

  onattribname(start: number, end: number): void {
    this.attr = this.src.slice(start, end);
    this.value = '';
    if (!NAME.test(this.attr)) this.fail('malformed tag', start);
  }

  onattribdata(start: number, end: number): void {
    this.value += this.src.slice(start, end);
  }

  onattribend(quote: QuoteType, end: number): void {
    if (quote !== QuoteType.Double && quote !== QuoteType.Single) this.fail('malformed tag', end);
    this.opening!.attrs[this.attr] = decodeEntities(this.value, this.opening!.line);
  }

  onopentagend(): void {
    this.place(this.opening!);
    this.stack.push(this.opening!);
  }

  onselfclosingtag(end: number): void {
    if (this.src[end - 1] !== '/') this.fail('malformed tag', end);
    this.place(this.opening!);
  }

  onclosetag(start: number, end: number): void {
    const name = this.src.slice(start, end).trim();
    const top = this.stack.pop();
    if (!top) this.fail(`closing tag </${name}> without an opening tag`, start);
    if (top.name !== name) this.fail(`</${name}> closes <${top.name}> opened on line ${top.line}`, start);
  }

  // Entities stay in the text (decodeEntities: false) and are decoded, strictly, by decodeEntities.
  onattribentity(): void {}
  ontextentity(): void {}
  onend(): void {}

  private place(el: XmlElement): void {
    if (this.top) this.top.children.push(el);
    else if (this.root) throw new XmlSyntaxError('a second root element', el.line);
    else this.root = el;
  }

  /** The root, once the whole document has been read. */
  finish(): XmlElement {
    const open = this.top;
    if (open) this.fail(`<${open.name}> opened on line ${open.line} is never closed`, this.src.length);
    if (!this.root) this.fail('no root element', this.src.length);
    return this.root;
  }
}

/** Parses a whole document with htmlparser2's tokenizer, held to XML's rules; returns its root element. */
export function parseXml(src: string): XmlElement {
  const tree = new TreeBuilder(src);
  const tokenizer = new Tokenizer({ xmlMode: true, decodeEntities: false }, tree);
  // A byte-order mark is read as a space, so every offset stays the source's.
  tokenizer.write(src.charCodeAt(0) === 0xfeff ? ' ' + src.slice(1) : src);
  tokenizer.end();
  return tree.finish();
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

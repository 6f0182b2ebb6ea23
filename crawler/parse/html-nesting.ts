/**
 * @module crawler/parse/html-nesting
 * htmlparser2's Parser keeps its open elements in an array it grows with
 * `unshift`, which moves every entry, and it scans that array on some tags
 * (`indexOf` on an end tag, `includes('form')`): a page of N unclosed
 * elements costs time quadratic in N (40,000 `<div><span>` pairs took
 * seconds). Browsers cap the nesting instead (Blink at 512): here an element
 * opened at `MAX_NESTING` first closes the innermost open one and becomes
 * its sibling, so the stack never grows past the cap and a page parses in
 * time linear in its size. Pages nested less deeply are parsed exactly as
 * before.
 *
 * The stack is private to htmlparser2; the constructor checks that the parts
 * used here are still there, so an upgrade that moves them fails loudly.
 */
import { Parser, type Handler, type ParserOptions } from 'htmlparser2';

/** Open elements at most, as in Blink's HTML parser. */
export const MAX_NESTING = 512;

/** The parts of htmlparser2's Parser (12.x) the cap works with. */
interface ParserInternals {
  stack: string[];
  readTagName(start: number, endIndex: number): string;
  popElement(implied: boolean): void;
}

export class NestingCappedParser extends Parser {
  private readonly inner: ParserInternals;

  constructor(
    cbs: Partial<Handler>,
    options: ParserOptions,
    private readonly maxNesting = MAX_NESTING,
  ) {
    super(cbs, options);
    this.inner = this as unknown as ParserInternals;
    if (!Array.isArray(this.inner.stack) || typeof this.inner.readTagName !== 'function' || typeof this.inner.popElement !== 'function')
      throw new Error('htmlparser2 no longer has the element stack the nesting cap works with (crawler/parse/html-nesting.ts)');
  }

  /** Tokenizer callback: a start tag's name. At the cap, a non-void element closes the innermost open one first. */
  override onopentagname(start: number, endIndex: number): void {
    const { inner } = this;
    if (inner.stack.length >= this.maxNesting && !this.isVoidElement(inner.readTagName(start, endIndex))) inner.popElement(true);
    super.onopentagname(start, endIndex);
  }
}

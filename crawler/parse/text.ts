/**
 * @module crawler/parse/text
 * The parse-text plugin: plain text (and other text/* types no other parser
 * claims) is its own parse text, whitespace collapsed; absolute http(s) URLs
 * written in it become outlinks without anchors, as Nutch's TextParser did
 * with its OutlinkExtractor.
 */
import type { Conf } from '../../shared/conf.js';
import type { ParseInput, ParseOutput, Parser, PluginDescriptor } from '../../shared/plugin/extension-points.js';
import { decodePage } from '../encoding.js';

/** URLs in running text end before whitespace, quotes, angle brackets and trailing punctuation. */
const URL_IN_TEXT = /\bhttps?:\/\/[^\s"'<>()[\]{}]+[^\s"'<>()[\]{}.,;:!?]/g;

export class TextPageParser implements Parser {
  readonly contentTypes = ['text/plain', 'text/*'];
  constructor(private readonly defaultCharset: string) {}

  parse(input: ParseInput): ParseOutput {
    const raw = decodePage(input, this.defaultCharset);
    const outlinks: ParseOutput['outlinks'] = [];
    for (const m of raw.matchAll(URL_IN_TEXT)) {
      try {
        outlinks.push({ url: new URL(m[0]).href, anchor: '' });
      } catch {
        // not a URL after all
      }
    }
    return { status: 'success', title: '', text: raw.replace(/\s+/g, ' ').trim(), outlinks, meta: {} };
  }
}

export const parseText: PluginDescriptor<'parser'> = {
  id: 'parse-text',
  point: 'parser',
  description: 'plain text (and text/* types no other parser claims); URLs in the text become outlinks',
  create: (conf: Conf) => new TextPageParser(conf.get('parser.character.encoding.default')),
};

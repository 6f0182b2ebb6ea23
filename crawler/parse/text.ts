/**
 * @module crawler/parse/text
 * The parse-text plugin: plain text (and other text/* types no other parser
 * claims) is its own parse text, whitespace collapsed; absolute http(s) URLs
 * written in it become outlinks without anchors, as Nutch's TextParser did
 * with its OutlinkExtractor. A text file has no <title>: it is titled by its
 * first heading (Markdown's `# Title` or an underlined line) or else its
 * first line, so a hit reads "Travel policy", not `file:///srv/…/travel.md`.
 */
import type { Conf } from '../../shared/conf.js';
import type { ParseInput, ParseOutput, Parser, PluginDescriptor } from '../../shared/plugin/extension-points.js';
import { decodePage } from '../encoding.js';

/** URLs in running text end before whitespace, quotes, angle brackets and trailing punctuation. */
const URL_IN_TEXT = /\bhttps?:\/\/[^\s"'<>()[\]{}]+[^\s"'<>()[\]{}.,;:!?]/g;

/** Titles longer than this are cut at a word and end in "…". */
const MAX_TITLE = 100;

function shortTitle(line: string): string {
  const t = line.replace(/\s+/g, ' ').trim();
  if (t.length <= MAX_TITLE) return t;
  const cut = t.slice(0, MAX_TITLE);
  const space = cut.lastIndexOf(' ');
  return `${space > MAX_TITLE / 2 ? cut.slice(0, space) : cut}…`;
}

/**
 * The title of a text file: in Markdown its first heading (`# Title`, or a
 * line underlined with `===` or `---`, front matter skipped), else, and in
 * plain text, its first line that is not blank (a leading `#` run stripped).
 */
export function textTitle(text: string, markdown: boolean): string {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  let from = 0;
  if (lines[0]?.trim() === '---') {
    const end = lines.findIndex((l, i) => i > 0 && /^(---|\.\.\.)\s*$/.test(l));
    if (end > 0) from = end + 1;
  }
  let first: string | undefined;
  for (let i = from; i < lines.length && i < from + 200; i++) {
    const line = lines[i]!.trim();
    first ??= line ? line.replace(/^#+\s*/, '') || undefined : undefined;
    if (!markdown && first !== undefined) break;
    const atx = /^#{1,6}\s+(.*?)(?:\s+#+)?$/.exec(line);
    if (atx?.[1]) return shortTitle(atx[1]);
    if (line && /^(=+|-+)$/.test(lines[i + 1]?.trim() ?? '') && !/^[-=]+$/.test(line)) return shortTitle(line);
  }
  return first ? shortTitle(first) : '';
}

/** Markdown by its declared type or its extension (a server may call a .md file text/plain). */
function isMarkdown(input: ParseInput): boolean {
  return /^text\/(x-)?markdown\b/i.test(input.contentType ?? '') || /\.(md|markdown)$/i.test(new URL(input.url).pathname);
}

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
    return { status: 'success', title: textTitle(raw, isMarkdown(input)), text: raw.replace(/\s+/g, ' ').trim(), outlinks, meta: {} };
  }
}

export const parseText: PluginDescriptor<'parser'> = {
  id: 'parse-text',
  point: 'parser',
  description: 'plain text (and text/* types no other parser claims); URLs in the text become outlinks',
  create: (conf: Conf) => new TextPageParser(conf.get('parser.character.encoding.default')),
};

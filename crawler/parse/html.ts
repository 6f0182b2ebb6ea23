/**
 * @module crawler/parse/html
 * The parse-html plugin: the title, the visible text, meta robots, meta
 * refresh, `<base href>`, the declared language and the outlinks with their
 * anchor text of an HTML page, from one streaming pass (`html-walk`), its
 * links resolved against the page's base. A page-wide meta `nofollow` drops
 * every link. Headings are kept as sections (text offset and the id a link
 * can point at), and text that is page furniture (menus and sidebars by
 * class name, runs of links, a heading repeating the title) as ranges the
 * summarizer passes over. Of the parsers, only `html-walk` and
 * `html-nesting` use htmlparser2.
 */
import type { Conf } from '../../shared/conf.js';
import type { ParseInput, ParseOutput, Parser, PluginDescriptor } from '../../shared/plugin/extension-points.js';
import { linkResolver, resolveHttp } from './link-resolver.js';
import { decodePage } from '../encoding.js';
import { NestingCappedParser } from './html-nesting.js';
import { breathe, LINKS_PER_BREATH, SLICE_CHARS } from './breathe.js';
import { HtmlWalk, type HtmlExtract } from './html-walk.js';
import { listingRanges } from './page-shape.js';

/** Runs the extractor over a decoded document; `skipNavigationText` leaves navigation out of `text`. */
export function extractHtml(html: string, skipNavigationText = false): HtmlExtract {
  const walk = new HtmlWalk(skipNavigationText);
  capped(walk).end(html);
  return walk.finish();
}

/**
 * `extractHtml` a slice at a time, letting the event loop run in between: a
 * page parsed inline must not hold the fetcher's other hosts for as long as
 * its parse takes. htmlparser2 streams, so the result is the same.
 */
export async function extractHtmlYielding(html: string, skipNavigationText = false): Promise<HtmlExtract> {
  const walk = new HtmlWalk(skipNavigationText);
  const parser = capped(walk);
  for (let at = 0; at < html.length; at += SLICE_CHARS) {
    parser.write(html.slice(at, at + SLICE_CHARS));
    await breathe();
  }
  parser.end();
  return walk.finish();
}

const capped = (walk: HtmlWalk) => new NestingCappedParser(walk, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });

export class HtmlPageParser implements Parser {
  readonly contentTypes = ['text/html', 'application/xhtml+xml'];
  constructor(
    private readonly defaultCharset: string,
    private readonly skipNavigationText: boolean,
  ) {}

  async parse(input: ParseInput): Promise<ParseOutput> {
    const x = await extractHtmlYielding(decodePage(input, this.defaultCharset), this.skipNavigationText);
    const base = (x.base && resolveHttp(x.base, input.url)) || input.url;
    const outlinks: ParseOutput['outlinks'] = [];
    const resolve = linkResolver(base);
    if (!x.nofollow)
      for (let i = 0; i < x.links.length; i++) {
        const l = x.links[i]!;
        const url = resolve(l.href);
        if (url) outlinks.push(l.nav ? { url, anchor: l.anchor, nav: true } : { url, anchor: l.anchor });
        if (i % LINKS_PER_BREATH === LINKS_PER_BREATH - 1) await breathe();
      }
    const meta: ParseOutput['meta'] = {};
    if (x.noindex) meta.noindex = true;
    if (x.nofollow) meta.nofollow = true;
    if (x.noarchive) meta.noarchive = true;
    const canonical = x.canonical && resolveHttp(x.canonical, base);
    if (canonical) meta.canonical = canonical;
    const refresh = x.refresh && resolveHttp(x.refresh.href, base);
    if (refresh && x.refresh) meta.refresh = { url: refresh, delay: x.refresh.delay };
    if (x.description) meta.description = x.description;
    if (x.keywords) meta.keywords = x.keywords;
    if (x.contentLanguage) meta.contentLanguage = x.contentLanguage;
    if (x.sections.length) meta.sections = x.sections;
    if (x.furniture.length) meta.furniture = x.furniture;
    const listing = listingRanges(x.text.length, x.code, x.furniture, x.codeShape);
    if (listing.length) meta.listing = listing;
    return { status: 'success', title: x.title, text: x.text, lang: x.lang, outlinks, meta };
  }
}

export const parseHtml: PluginDescriptor<'parser'> = {
  id: 'parse-html',
  point: 'parser',
  description: 'HTML and XHTML: title, visible text, meta robots and refresh, outlinks with anchors',
  create: (conf: Conf) =>
    new HtmlPageParser(conf.get('parser.character.encoding.default'), conf.getBoolean('parser.html.skip.navigation.text')),
};

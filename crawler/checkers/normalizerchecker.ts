/**
 * @module crawler/checkers/normalizerchecker
 * `hazelnut normalizerchecker`: Nutch's URLNormalizerChecker. For each URL,
 * what the active normalizer chain makes of it in one scope — the same chain,
 * loops included, that the crawler runs — or, when a normalizer drops it,
 * which one. A scope chooses scope-specific rule files
 * (`urlnormalizer.regex.file.<scope>`).
 */
import { UsageError } from '../../shared/errors.js';
import type { NormalizerScope } from '../../shared/plugin/extension-points.js';
import { normalizerChain } from '../plugin/chains.js';
import { activePlugins, checkerTool } from './checker.js';

/** Every scope, and where the crawler normalizes in it. */
export const SCOPES: Record<NormalizerScope, string> = {
  default: 'anywhere without a scope of its own',
  inject: 'seed URLs in inject',
  generate_host_count: 'due URLs selected by generate',
  fetcher: 'redirect and meta refresh targets',
  crawldb: 'URLs merged into the WebDB by updatedb',
  linkdb: 'inlinks in invertlinks',
  outlink: "a parsed page's outlinks",
  indexer: "Nutch's indexing scope (no hazelnut tool normalizes in it)",
};

const isScope = (s: string): s is NormalizerScope => Object.hasOwn(SCOPES, s);

export default checkerTool({
  name: 'normalizerchecker',
  usage: `Usage: hazelnut normalizerchecker [-scope <scope>] [<url> ...]
Prints each URL as the active normalizers leave it, or -url and the normalizer that
dropped it. URLs come from the arguments or, with none, one per line from stdin.
  -scope <scope>  where in the crawl (default: default):
${Object.entries(SCOPES)
  .map(([s, d]) => `                    ${s.padEnd(20)} ${d}`)
  .join('\n')}`,
  args: { string: ['scope'] },
  async prepare(ctx, a) {
    const scope = typeof a.scope === 'string' ? a.scope : 'default';
    if (!isScope(scope)) throw new UsageError(`unknown scope ${scope} (one of ${Object.keys(SCOPES).join(', ')})`);
    const normalizers = await activePlugins(ctx.conf, 'url-normalizer');
    let droppedBy = '';
    const chain = normalizerChain(
      normalizers.map(({ id, impl }) => ({
        normalize(url: string) {
          const r = impl.normalize(url, scope);
          if (r === null) droppedBy = id;
          return r;
        },
      })),
      ctx.conf.getInt('urlnormalizer.loop.count'),
    );
    return {
      check: {
        check({ url }) {
          const r = chain.normalize(url, scope);
          return { text: r === null ? `-${url}\tdropped by ${droppedBy}` : r };
        },
      },
    };
  },
});

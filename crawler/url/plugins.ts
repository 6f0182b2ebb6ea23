/**
 * @module crawler/url/plugins
 * The URL room's built-in plugins, registered where they live: the
 * normalizers (basic before regex, as Nutch ran them) and the filters.
 */
import { registerPlugins } from '../../shared/plugin/registry.js';
import { urlfilterHost } from './host-filter.js';
import { urlnormalizerBasic } from './normalize.js';
import { urlfilterRegex } from './regex-filter.js';
import { urlnormalizerRegex } from './regex-normalize.js';

registerPlugins(urlnormalizerBasic, urlnormalizerRegex, urlfilterRegex, urlfilterHost);

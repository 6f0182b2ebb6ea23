/**
 * @module crawler/parse/plugins
 * The parse room's built-in plugins, registered where they live: one parser
 * per family of content types.
 */
import { registerPlugins } from '../../shared/plugin/registry.js';
import { parseOffice, parsePdf } from './pdf-office.js';
import { parseHtml } from './html.js';
import { parseText } from './text.js';

registerPlugins(parseHtml, parseText, parsePdf, parseOffice);

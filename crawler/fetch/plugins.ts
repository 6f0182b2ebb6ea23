/**
 * @module crawler/fetch/plugins
 * The fetch room's built-in plugins, registered where they live: the
 * protocols, http(s) first.
 */
import { registerPlugins } from '../../shared/plugin/registry.js';
import { protocolFile } from './protocol-file.js';
import { protocolHttp } from './protocol-http.js';

registerPlugins(protocolHttp, protocolFile);

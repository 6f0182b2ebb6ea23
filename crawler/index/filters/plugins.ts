/**
 * @module crawler/index/filters/plugins
 * The indexing filters, registered where they live, in the order they run
 * when indexingfilter.order says nothing.
 */
import { registerPlugins } from '../../../shared/plugin/registry.js';
import { indexAnchor } from './anchor.js';
import { indexBasic } from './basic.js';
import { indexMore } from './more.js';

registerPlugins(indexBasic, indexAnchor, indexMore);

/**
 * @module crawler/scoring/plugins
 * The scoring room's built-in plugin, registered where it lives: OPIC.
 */
import { registerPlugins } from '../../shared/plugin/registry.js';
import { scoringOpic } from './opic.js';

registerPlugins(scoringOpic);

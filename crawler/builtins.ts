/**
 * @module crawler/builtins
 * The crawler's built-in plugins. Each plugin folder registers its own
 * (`<folder>/plugins.ts`); importing this module has every folder do so, in
 * the order `hazelnut plugin list` shows them. Only a process's entry points
 * import it — the command line and the parse thread — so no plugin folder
 * imports back the module that gathers it.
 */
import './fetch/plugins.js';
import './url/plugins.js';
import './parse/plugins.js';
import './scoring/plugins.js';
import './index/filters/plugins.js';

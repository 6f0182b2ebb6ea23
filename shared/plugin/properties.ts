/**
 * @module shared/plugin/properties
 * The configuration with the user plugins' own properties, as Nutch read each
 * plugin's declarations before the job ran. The plugins of plugin.folders are
 * imported while the configuration loads: a first reading of the files finds
 * plugin.folders and plugin.excludes, then the files are read again with the
 * active plugins' properties declared beside hazelnut-default.xml's, so a
 * misspelt or mistyped plugin property is refused (file:line, did you mean)
 * before any command writes anything — the commands that never load plugins
 * too, since they share the site file.
 */
import { Conf, valid, type ConfOptions, type PropertyDecl } from '../conf.js';
import { HzError } from '../errors.js';
import { PROPERTY_TYPE_PATTERNS, PROPERTY_TYPES, type PropertyType } from '../property-types.js';
import { activity, loadUserPlugins, pluginFolders } from './registry.js';
import type { PluginDescriptor } from './extension-points.js';

const TYPES: readonly string[] = ['string', 'int', 'float', 'boolean', 'duration', 'regex'];

/** A plugin's property declarations, checked: each a new name, of a known type, its default of that type. */
export function pluginPropertyDecls(d: PluginDescriptor, source: string, taken: (name: string) => string | undefined): PropertyDecl[] {
  if (d.properties === undefined) return [];
  const bad = (why: string) => new HzError('HZ_ERR_PLUGIN', `plugin module ${source}: plugin ${d.id}: ${why}`);
  if (!Array.isArray(d.properties)) throw bad('properties must be an array of {name, type, default, description}');
  return d.properties.map((p: unknown) => {
    const o = (p ?? {}) as Record<string, unknown>;
    if (typeof o.name !== 'string' || !/^[\w.-]+$/.test(o.name)) throw bad(`a property has no valid name (letters, digits, - . _): ${JSON.stringify(o.name)}`);
    const type = o.type ?? 'string';
    if (typeof type !== 'string' || !TYPES.includes(type)) throw bad(`property ${o.name}: type must be one of ${TYPES.join(', ')}, not ${JSON.stringify(type)}`);
    if (typeof o.default !== 'string') throw bad(`property ${o.name}: default must be a string`);
    if (type !== 'string' && !valid(type as PropertyType, o.default.trim())) throw bad(`property ${o.name}: default ${JSON.stringify(o.default)} is not of type ${type}`);
    const owner = taken(o.name);
    if (owner) throw bad(`property ${o.name} is already declared by ${owner}`);
    return {
      name: o.name,
      value: o.default,
      description: typeof o.description === 'string' ? o.description.trim().replace(/\s+/g, ' ') : '',
      line: 0,
      type: type === 'string' ? undefined : (type as PropertyType),
      plugin: { id: d.id, source },
    };
  });
}

/**
 * Loads the configuration (defaults → resources → site file → -D) with the
 * properties of the active plugins of plugin.folders declared; a property of
 * an excluded plugin is refused as such.
 */
export async function loadConf(opts: ConfOptions = {}): Promise<Conf> {
  const first = Conf.load({ ...opts, undeclared: 'ignore' });
  if (!pluginFolders(first).some((f) => f.exists)) return Conf.load(opts);
  const isActive = activity(first);
  const owners = new Map<string, string>();
  const taken = (name: string) =>
    first.isDeclared(name) || name in PROPERTY_TYPES || PROPERTY_TYPE_PATTERNS.some(([re]) => re.test(name)) ? 'hazelnut-default.xml' : owners.get(name);
  const pluginProperties: PropertyDecl[] = [];
  const inactiveProperties = new Map<string, string>();
  for (const { descriptor, source } of await loadUserPlugins(first)) {
    const decls = pluginPropertyDecls(descriptor, source, taken);
    for (const decl of decls) owners.set(decl.name, `plugin ${descriptor.id} (${source})`);
    if (isActive(descriptor.id, false)) pluginProperties.push(...decls);
    else for (const decl of decls) inactiveProperties.set(decl.name, descriptor.id);
  }
  return Conf.load({ ...opts, pluginProperties, inactiveProperties });
}

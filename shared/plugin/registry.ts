/**
 * @module shared/plugin/registry
 * Which plugins run, and in what order. Each plugin folder registers its
 * built-ins here (`registerPlugins`): the registry knows plugin ids and
 * extension points, never the folders they come from. `plugin.includes` and `plugin.excludes` are regular
 * expressions that must match a whole plugin id (Nutch matched plugin
 * directory names the same way). `plugin.folders` adds the user's own ES
 * modules; those are active unless excluded, so dropping a file in the folder
 * is enough. Per extension point, an order property (`urlnormalizer.order`, …)
 * lists ids to run first; the rest follow in registration order.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Conf } from '../conf.js';
import { HzError, isHzError } from '../errors.js';
import type { ExtensionPoint, PluginDescriptor } from './extension-points.js';

export const EXTENSION_POINTS: readonly ExtensionPoint[] = [
  'url-normalizer',
  'url-filter',
  'parser',
  'indexing-filter',
  'scoring-filter',
  'protocol',
];

/** The property that orders each extension point, where Nutch had one. */
export const ORDER_PROPERTIES: Partial<Record<ExtensionPoint, string>> = {
  'url-normalizer': 'urlnormalizer.order',
  'url-filter': 'urlfilter.order',
  'indexing-filter': 'indexingfilter.order',
  'scoring-filter': 'scoring.filter.order',
};

const BUILTINS: PluginDescriptor[] = [];

/** A plugin folder's built-ins join the list, in the order given; a built-in id is never taken twice. */
export function registerPlugins(...descriptors: PluginDescriptor[]): void {
  for (const d of descriptors) {
    if (BUILTINS.some((b) => b.id === d.id)) throw new HzError('HZ_ERR_PLUGIN', `built-in plugin id ${d.id} is registered twice`);
    BUILTINS.push(d);
  }
}

/** Every registered built-in, in registration order (the order within a point when no order property says otherwise). */
export function builtinPlugins(): readonly PluginDescriptor[] {
  if (BUILTINS.length === 0) throw new Error('no built-in plugins are registered: the entry point imports crawler/builtins.js');
  return BUILTINS;
}

export interface PluginEntry {
  descriptor: PluginDescriptor;
  active: boolean;
  /** `builtin`, or the module file a user plugin came from. */
  source: string;
}

function wholeMatch(conf: Conf, name: string): RegExp | null {
  const src = conf.get(name);
  if (!src) return null;
  try {
    return new RegExp(`^(?:${src})$`);
  } catch (e) {
    throw new HzError('HZ_ERR_CONF_PROPERTY', `property ${name} in ${conf.source(name)} is not a valid regular expression: ${(e as Error).message}`);
  }
}

function checkDescriptor(d: unknown, file: string): PluginDescriptor {
  const o = d as Partial<PluginDescriptor> | null;
  const problem =
    !o || typeof o !== 'object'
      ? 'the default export is not a plugin descriptor object'
      : typeof o.id !== 'string' || !/^[\w.-]+$/.test(o.id)
        ? 'a descriptor has no valid id (letters, digits, - . _)'
        : !EXTENSION_POINTS.includes(o.point as ExtensionPoint)
          ? `plugin ${o.id}: point must be one of ${EXTENSION_POINTS.join(', ')}, not ${JSON.stringify(o.point)}`
          : typeof o.create !== 'function'
            ? `plugin ${o.id}: create(conf) is not a function`
            : undefined;
  if (problem) throw new HzError('HZ_ERR_PLUGIN', `plugin module ${file}: ${problem}`);
  return { ...o, description: typeof o!.description === 'string' ? o!.description : '' } as PluginDescriptor;
}

/** Module files of one plugin folder: `*.js`/`*.mjs`, and `<dir>/index.js|mjs`. */
function moduleFiles(dir: string): string[] {
  const files: string[] = [];
  for (const ent of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const p = path.join(dir, ent.name);
    if (ent.isFile() && /\.m?js$/.test(ent.name)) files.push(p);
    else if (ent.isDirectory()) {
      const index = ['index.js', 'index.mjs'].map((n) => path.join(p, n)).find((f) => fs.existsSync(f));
      if (index) files.push(index);
    }
  }
  return files;
}

/** The plugin folders of this configuration, resolved; missing ones are reported as such. */
export function pluginFolders(conf: Conf): { dir: string; exists: boolean }[] {
  return conf
    .get('plugin.folders')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((d) => path.resolve(conf.confDir, d))
    .map((dir) => ({ dir, exists: fs.existsSync(dir) && fs.statSync(dir).isDirectory() }));
}

/** Imports every user plugin module; a module that fails is an error naming it. */
export async function loadUserPlugins(conf: Conf): Promise<{ descriptor: PluginDescriptor; source: string }[]> {
  const out: { descriptor: PluginDescriptor; source: string }[] = [];
  for (const { dir, exists } of pluginFolders(conf)) {
    if (!exists) continue;
    for (const file of moduleFiles(dir)) {
      let mod: { default?: unknown };
      try {
        mod = (await import(pathToFileURL(file).href)) as { default?: unknown };
      } catch (e) {
        throw new HzError('HZ_ERR_PLUGIN', `plugin module ${file} failed to load: ${(e as Error).message}`, { cause: e });
      }
      if (mod.default === undefined) throw new HzError('HZ_ERR_PLUGIN', `plugin module ${file} has no default export`);
      for (const d of ([] as unknown[]).concat(mod.default)) out.push({ descriptor: checkDescriptor(d, file), source: file });
    }
  }
  return out;
}

/** Whether a plugin is active: a built-in when plugin.includes names it, a user plugin always; neither when plugin.excludes names it. */
export function activity(conf: Conf): (id: string, builtin: boolean) => boolean {
  const includes = wholeMatch(conf, 'plugin.includes');
  const excludes = wholeMatch(conf, 'plugin.excludes');
  return (id, builtin) => (builtin ? (includes?.test(id) ?? false) : true) && !excludes?.test(id);
}

/**
 * Every available plugin — built-ins, then user plugins — with whether it is
 * active. Ids must be unique: a user plugin cannot silently replace a built-in.
 */
export async function listPlugins(conf: Conf, builtins: readonly PluginDescriptor[] = builtinPlugins()): Promise<PluginEntry[]> {
  const isActive = activity(conf);
  const entries: PluginEntry[] = [];
  const seen = new Map<string, string>();
  const add = (descriptor: PluginDescriptor, source: string) => {
    const prev = seen.get(descriptor.id);
    if (prev) throw new HzError('HZ_ERR_PLUGIN', `plugin id ${descriptor.id} from ${source} is already used by ${prev}`);
    seen.set(descriptor.id, source === 'builtin' ? 'a built-in plugin' : source);
    entries.push({ descriptor, source, active: isActive(descriptor.id, source === 'builtin') });
  };
  for (const d of builtins) add(d, 'builtin');
  for (const { descriptor, source } of await loadUserPlugins(conf)) add(descriptor, source);
  return entries;
}

/** The active descriptors of one point, in the order its order property asks for. */
export function orderedActive<P extends ExtensionPoint>(conf: Conf, entries: PluginEntry[], point: P): PluginDescriptor<P>[] {
  const active = entries.filter((e) => e.active && e.descriptor.point === point).map((e) => e.descriptor as PluginDescriptor<P>);
  const prop = ORDER_PROPERTIES[point];
  const order = prop ? conf.getList(prop) : [];
  const rank = (id: string) => {
    const i = order.indexOf(id);
    return i < 0 ? order.length : i;
  };
  return active
    .map((d, i) => ({ d, i }))
    .sort((a, b) => rank(a.d.id) - rank(b.d.id) || a.i - b.i)
    .map((x) => x.d);
}

/** Creates the implementations of one point; a plugin whose create() returns null is switched off by its own properties. */
export function instantiate<P extends ExtensionPoint>(conf: Conf, descriptors: PluginDescriptor<P>[]): { id: string; impl: NonNullable<ReturnType<PluginDescriptor<P>['create']>> }[] {
  const out: { id: string; impl: NonNullable<ReturnType<PluginDescriptor<P>['create']>> }[] = [];
  for (const d of descriptors) {
    let impl;
    try {
      impl = d.create(conf);
    } catch (e) {
      if (isHzError(e)) throw e;
      throw new HzError('HZ_ERR_PLUGIN', `plugin ${d.id} failed to start: ${(e as Error).message}`, { cause: e });
    }
    if (impl) out.push({ id: d.id, impl: impl as NonNullable<ReturnType<PluginDescriptor<P>['create']>> });
  }
  return out;
}

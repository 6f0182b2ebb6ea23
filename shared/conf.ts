/**
 * @module shared/conf
 * Configuration in Nutch's layering: `hazelnut-default.xml` declares every
 * property with its default and description; optional extra resources (the
 * one-shot crawl's `crawl-tool.xml`) come next; `hazelnut-site.xml` holds the
 * user's overrides; `-D name=value` on the command line wins over all.
 * (Nutch 1.0 put crawl-tool.xml after the site file — NUTCH-735; this order
 * is 1.1's.) A name the defaults do not declare, or a value that is not of
 * the property's type (property-types.ts), is an error naming the file and
 * line (or the -D) when the configuration loads, before any command writes
 * anything, so a typo never turns silently into a default. A plugin from
 * plugin.folders declares its own properties (shared/plugin/properties.ts):
 * while it is active they are declared too, typed and with their defaults.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_FILE, findConfFile, PACKAGE_CONF_DIR, readPropertyFile, SITE_FILE, type PropertyEntry } from './conf-files.js';
import { didYouMean } from './did-you-mean.js';
import { HzError } from './errors.js';
import { PROPERTY_TYPE_PATTERNS, PROPERTY_TYPES, type PropertyType } from './property-types.js';

export { DEFAULT_FILE, PACKAGE_CONF_DIR, readConfText, SITE_FILE } from './conf-files.js';

export interface ConfOptions {
  /** The configuration directory (conf-files.ts says what is read from it); `HAZELNUT_CONF_DIR` when omitted. */
  confDir?: string;
  /** Files layered between the defaults and the site file, e.g. `crawl-tool.xml`. */
  resources?: string[];
  /** `-D` overrides, applied last. */
  overrides?: Record<string, string>;
  /** Properties the active user plugins declare, on top of hazelnut-default.xml. */
  pluginProperties?: PropertyDecl[];
  /** Names of properties declared by plugins that are not active, for the message that refuses them. */
  inactiveProperties?: Map<string, string>;
  /**
   * `ignore` skips names nobody declared instead of refusing them: for the
   * first reading, which finds plugin.folders before the plugins' own names
   * are known.
   */
  undeclared?: 'refuse' | 'ignore';
}

interface Entry {
  value: string;
  source: string;
  /** The line of the source file that set it. */
  line?: number;
}

export interface PropertyDecl extends PropertyEntry {
  /** Set for a plugin's property; a built-in one's type is in property-types.ts. */
  type?: PropertyType;
  /** The plugin that declares it and its module file (a plugin's property). */
  plugin?: { id: string; source: string };
}

export interface ConfSnapshot {
  confDir: string;
  declared: PropertyDecl[];
  values: [string, Entry][];
}

/** Undeclared names a site file may still set: one per scope of a declared property. */
const SCOPED_NAMES = [/^urlnormalizer\.regex\.file\.[a-z_]+$/];

const TYPE_WORDS: Record<PropertyType, string> = {
  int: 'an integer',
  float: 'a number',
  boolean: 'true or false',
  duration: 'a duration (a number, or with ms/s/min/h/d/w)',
  regex: 'a valid regular expression',
  'webdb-url': 'empty or a postgresql://user@host:port/db URL',
};

/** Whether a (trimmed) value reads as its type. */
export function valid(type: PropertyType, v: string): boolean {
  switch (type) {
    case 'int':
      return /^[-+]?\d+$/.test(v);
    case 'float':
      return v !== '' && Number.isFinite(Number(v));
    case 'boolean':
      return /^(true|false)$/i.test(v);
    case 'duration':
      return parseDuration(v) !== undefined;
    case 'webdb-url':
      return v === '' || /^postgres(?:ql)?:\/\/\S+$/i.test(v);
    case 'regex':
      try {
        new RegExp(v);
        return true;
      } catch {
        return false;
      }
  }
}

export function propertyType(name: string): PropertyType | undefined {
  return PROPERTY_TYPES[name] ?? PROPERTY_TYPE_PATTERNS.find(([re]) => re.test(name))?.[1];
}

const where = (e: Entry) => (e.line ? `${e.source}:${e.line}` : e.source);

const DURATION_UNITS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  min: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/** A duration in ms from a number in `unit` or a number with a suffix (ms, s, m/min, h, d, w); undefined when malformed. */
export function parseDuration(v: string, unit: 'ms' | 's' | 'min' | 'h' | 'd' = 'ms'): number | undefined {
  const m = /^([-+]?\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(v.trim());
  const factor = m ? (m[2] ? DURATION_UNITS[m[2].toLowerCase()] : DURATION_UNITS[unit]) : undefined;
  return m && factor !== undefined ? Number(m[1]) * factor : undefined;
}

export class Conf {
  private readonly values = new Map<string, Entry>();
  private readonly declared = new Map<string, PropertyDecl>();
  readonly confDir: string;

  private constructor(confDir: string) {
    this.confDir = confDir;
  }

  static load(opts: ConfOptions = {}): Conf {
    const confDir = path.resolve(opts.confDir ?? process.env.HAZELNUT_CONF_DIR ?? PACKAGE_CONF_DIR);
    if (!fs.existsSync(confDir) || !fs.statSync(confDir).isDirectory())
      throw new HzError('HZ_ERR_CONF_FILE', `configuration directory ${confDir} does not exist`);
    const conf = new Conf(confDir);
    for (const decl of readPropertyFile(path.join(PACKAGE_CONF_DIR, DEFAULT_FILE))) {
      conf.declared.set(decl.name, decl);
      conf.values.set(decl.name, { value: decl.value, source: DEFAULT_FILE });
    }
    for (const decl of opts.pluginProperties ?? []) {
      conf.declared.set(decl.name, decl);
      conf.values.set(decl.name, { value: decl.value, source: `plugin ${decl.plugin?.id}` });
    }
    const check = { inactive: opts.inactiveProperties, ignore: opts.undeclared === 'ignore' };
    for (const name of [...(opts.resources ?? []), SITE_FILE]) {
      const file = conf.resolveFile(name, { optional: true });
      if (!file) continue;
      for (const p of readPropertyFile(file)) conf.setChecked(p.name, { value: p.value, source: file, line: p.line }, check);
    }
    for (const [k, v] of Object.entries(opts.overrides ?? {})) conf.setChecked(k, { value: v, source: `-D ${k}` }, check);
    return conf;
  }

  /** Sets a property from a file or -D: its name must be declared and its value of the property's type. */
  private setChecked(name: string, e: Entry, check: { inactive?: Map<string, string>; ignore: boolean }): void {
    if (!this.declared.has(name) && !SCOPED_NAMES.some((re) => re.test(name))) {
      if (check.ignore) return;
      const owner = check.inactive?.get(name);
      if (owner) throw new HzError('HZ_ERR_CONF_PROPERTY', `${where(e)}: property ${name} belongs to plugin ${owner}, which is not active (plugin.excludes)`);
      const near = didYouMean(name, this.declared.keys());
      throw new HzError(
        'HZ_ERR_CONF_PROPERTY',
        `${where(e)}: unknown property ${name}${near ? `; did you mean ${near}?` : ` (${DEFAULT_FILE} and the active plugins declare every property)`}`,
      );
    }
    const type = this.declared.get(name)?.type ?? propertyType(name);
    if (type && !valid(type, e.value.trim()))
      throw new HzError('HZ_ERR_CONF_PROPERTY', `${where(e)}: property ${name} must be ${TYPE_WORDS[type]}, not ${JSON.stringify(e.value.trim())}`);
    this.values.set(name, e);
  }

  /** Every property declared in hazelnut-default.xml, in file order, then the active plugins'. */
  declarations(): PropertyDecl[] {
    return [...this.declared.values()];
  }

  /** The properties the active user plugins declare (shared/plugin/properties.ts). */
  pluginProperties(): PropertyDecl[] {
    return this.declarations().filter((d) => d.plugin);
  }

  isDeclared(name: string): boolean {
    return this.declared.has(name);
  }

  /** True when the property has a value (declared, or set by a site file or -D): for per-scope names like `urlnormalizer.regex.file.<scope>`. */
  has(name: string): boolean {
    return this.values.has(name);
  }

  /** Where the current value of a property came from (file path or `-D`). */
  source(name: string): string {
    return this.entry(name).source;
  }

  set(name: string, value: string, source = 'set'): void {
    this.values.set(name, { value, source });
  }

  /** Everything the configuration holds, as plain data: what a worker thread rebuilds it from (`fromSnapshot`). */
  snapshot(): ConfSnapshot {
    return { confDir: this.confDir, declared: [...this.declared.values()], values: [...this.values] };
  }

  static fromSnapshot(s: ConfSnapshot): Conf {
    const c = new Conf(s.confDir);
    for (const d of s.declared) c.declared.set(d.name, d);
    for (const [k, e] of s.values) c.values.set(k, e);
    return c;
  }

  /** A copy with some properties changed; the original is untouched. */
  with(overrides: Record<string, string>): Conf {
    const c = Conf.fromSnapshot(this.snapshot());
    for (const [k, v] of Object.entries(overrides)) c.values.set(k, { value: v, source: 'set' });
    return c;
  }

  get(name: string): string {
    return this.entry(name).value.trim();
  }

  getString(name: string): string {
    return this.get(name);
  }

  getInt(name: string): number {
    const v = this.get(name);
    if (!valid('int', v)) throw this.bad(name, TYPE_WORDS.int);
    return Number(v);
  }

  getFloat(name: string): number {
    const v = this.get(name);
    if (!valid('float', v)) throw this.bad(name, TYPE_WORDS.float);
    return Number(v);
  }

  getBoolean(name: string): boolean {
    const v = this.get(name).toLowerCase();
    if (v === 'true') return true;
    if (v === 'false') return false;
    throw this.bad(name, 'true or false');
  }

  /**
   * A duration in milliseconds. The value is a number in `unit` (Nutch's
   * properties each have their own: seconds for delays and intervals) or a
   * number with a suffix: ms, s, m/min, h, d, w.
   */
  getDuration(name: string, unit: 'ms' | 's' | 'min' | 'h' | 'd' = 'ms'): number {
    const ms = parseDuration(this.get(name), unit);
    if (ms === undefined) throw this.bad(name, `a duration (a number of ${unit}, or with ms/s/min/h/d/w)`);
    return ms;
  }

  /** A comma- or whitespace-separated list; empty entries dropped. */
  getList(name: string): string[] {
    return this.get(name)
      .split(/[\s,]+/)
      .filter(Boolean);
  }

  getRegex(name: string, flags = ''): RegExp {
    const v = this.get(name);
    try {
      return new RegExp(v, flags);
    } catch (e) {
      throw this.bad(name, `a valid regular expression (${(e as Error).message})`);
    }
  }

  /**
   * Path of a configuration resource (rule file, site file): the conf
   * directory, then for a file the package ships as a default its `conf/`.
   */
  resolveFile(name: string, opts: { optional: true }): string | undefined;
  resolveFile(name: string, opts?: { optional?: false }): string;
  resolveFile(name: string, opts: { optional?: boolean } = {}): string | undefined {
    const file = findConfFile(this.confDir, name);
    return file ?? (opts.optional ? undefined : missing(path.isAbsolute(name) ? name : path.join(this.confDir, name)));
  }

  private entry(name: string): Entry {
    const e = this.values.get(name);
    if (!e)
      throw new HzError(
        'HZ_ERR_CONF_PROPERTY',
        `property ${name} is not declared in ${DEFAULT_FILE} (nor set in a site file)`,
      );
    return e;
  }

  private bad(name: string, expected: string): HzError {
    const e = this.entry(name);
    return new HzError('HZ_ERR_CONF_PROPERTY', `property ${name} in ${where(e)} must be ${expected}, not ${JSON.stringify(e.value)}`);
  }
}

function missing(file: string): never {
  throw new HzError('HZ_ERR_CONF_FILE', `configuration file ${file} does not exist`);
}

/**
 * @module shared/conf-files
 * Where a configuration file is found. A configuration directory given by
 * `-conf` or `HAZELNUT_CONF_DIR` is the whole of the user's configuration:
 * its `hazelnut-site.xml` (or none) is the only site file read, and a file the
 * user writes (credentials, their own rules) is looked up there only. The
 * package's `conf/` adds nothing but what it ships as defaults — the declared
 * properties and the stock rule files — so the clone's own edited site file
 * never leaks into `-conf /etc/hazelnut`, nor into the tests' configuration.
 */
import fs from 'node:fs';
import path from 'node:path';
import { HzError } from './errors.js';
import { child, parseXml, XmlSyntaxError } from './xml.js';

/** The package's own `conf/` directory: the defaults. */
export const PACKAGE_CONF_DIR = path.resolve(import.meta.dirname, '..', 'conf');
export const DEFAULT_FILE = 'hazelnut-default.xml';
export const SITE_FILE = 'hazelnut-site.xml';

/**
 * The files of the package's `conf/` that are defaults, found there when the
 * configuration directory has no copy of its own. The site file is not one:
 * it is the user's, read from the configuration directory alone.
 */
export const SHIPPED_FILES: readonly string[] = ['crawl-tool.xml', 'regex-normalize.xml', 'regex-urlfilter.txt', 'synonyms.txt'];

/** The directories a relative file `name` is looked up in, first match wins. */
export function confSearchPath(confDir: string, name: string): string[] {
  const own = path.resolve(confDir);
  return own !== PACKAGE_CONF_DIR && SHIPPED_FILES.includes(name) ? [own, PACKAGE_CONF_DIR] : [own];
}

/** The path of configuration file `name` (absolute, or looked up as above), or undefined when there is none. */
export function findConfFile(confDir: string, name: string): string | undefined {
  if (path.isAbsolute(name)) return fs.existsSync(name) ? name : undefined;
  return confSearchPath(confDir, name)
    .map((dir) => path.join(dir, name))
    .find((p) => fs.existsSync(p));
}

/** The text of a configuration file; one that cannot be read is HZ_ERR_CONF_FILE naming `what` (rules, synonyms, …) and the file. */
export function readConfText(file: string, what?: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new HzError('HZ_ERR_CONF_FILE', `cannot read ${what ? `${what} ` : ''}${file}: ${(e as Error).message}`);
  }
}

/** One `<property>` of a configuration file, with the line it starts on. */
export interface PropertyEntry {
  name: string;
  value: string;
  description: string;
  line: number;
}

/** Reads a `<configuration><property>…` file; errors name the file and line. */
export function readPropertyFile(file: string): PropertyEntry[] {
  const src = readConfText(file);
  let root;
  try {
    root = parseXml(src);
  } catch (e) {
    if (e instanceof XmlSyntaxError)
      throw new HzError('HZ_ERR_CONF_XML', `${file}:${e.line}: ${e.message}`);
    throw e;
  }
  if (root.name !== 'configuration')
    throw new HzError('HZ_ERR_CONF_XML', `${file}:${root.line}: root element must be <configuration>, not <${root.name}>`);
  const out: PropertyEntry[] = [];
  for (const p of root.children) {
    if (p.name !== 'property')
      throw new HzError('HZ_ERR_CONF_XML', `${file}:${p.line}: unexpected <${p.name}> (expected <property>)`);
    const name = child(p, 'name')?.text.trim();
    if (!name) throw new HzError('HZ_ERR_CONF_XML', `${file}:${p.line}: <property> without a <name>`);
    out.push({
      name,
      line: p.line,
      value: child(p, 'value')?.text ?? '',
      description: (child(p, 'description')?.text ?? '').trim().replace(/\s+/g, ' '),
    });
  }
  return out;
}

/**
 * Every property the code reads is declared in hazelnut-default.xml, and every
 * declared property is read somewhere: the defaults file stays the complete,
 * true list of what can be configured.
 */
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Conf, propertyType } from '../../shared/conf.js';
import { PROPERTY_TYPES } from '../../shared/property-types.js';

const root = path.resolve(import.meta.dirname, '..', '..');

function* sources(dir: string): Generator<string> {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* sources(p);
    else if (e.name.endsWith('.ts')) yield p;
  }
}

const code = ['shared', 'segments', 'crawler', 'searcher']
  .flatMap((d) => [...sources(path.join(root, d))])
  .map((f) => fs.readFileSync(f, 'utf8'))
  .join('\n');
const declared = Conf.load().declarations().map((d) => d.name);

test('every property read with a literal name is declared', () => {
  const read = new Set<string>();
  for (const m of code.matchAll(/\.(?:get|getString|getInt|getFloat|getBoolean|getDuration|getList|getRegex|has|source)\(\s*'([a-z][\w-]*\.[\w.-]+)'/g))
    read.add(m[1]!);
  assert.ok(read.size > 20, `found ${read.size} reads`);
  assert.equal([...read].filter((n) => !declared.includes(n)).sort(), []);
});

/** Names built in template literals, such as `searcher.bm25f.${field}.weight`, as patterns. */
const templated = [...code.matchAll(/`([a-z][\w.]*\.)\$\{[^}]+\}([\w.]*)`/g)].map(
  (m) => new RegExp(`^${m[1]!.replace(/\./g, '\\.')}[\\w-]+${m[2]!.replace(/\./g, '\\.')}$`),
);

test('every declared property is read somewhere, and described', () => {
  assert.equal(declared.filter((n) => !code.includes(`'${n}'`) && !templated.some((r) => r.test(n))).sort(), []);
  assert.equal(Conf.load().declarations().filter((d) => d.description.length < 20).map((d) => d.name), []);
});

test('the type of each property checked at load is the type the code reads it as', () => {
  const kinds: Record<string, string> = { Int: 'int', Float: 'float', Boolean: 'boolean', Duration: 'duration', Regex: 'regex' };
  const wrong: string[] = [];
  let reads = 0;
  for (const m of code.matchAll(/\.get(Int|Float|Boolean|Duration|Regex)\(\s*'([a-z][\w-]*\.[\w.-]+)'/g)) {
    reads++;
    if (propertyType(m[2]!) !== kinds[m[1]!]) wrong.push(`${m[2]} is read with get${m[1]} but typed ${propertyType(m[2]!) ?? 'nothing'} in shared/property-types.ts`);
  }
  assert.ok(reads > 50, `found ${reads} typed reads`);
  assert.equal(wrong, []);
  assert.equal(Object.keys(PROPERTY_TYPES).filter((n) => !declared.includes(n)), [], 'every typed property is declared');
});

test.run();

/**
 * Every property the code reads is declared in hazelnut-default.xml, and every
 * declared property is read somewhere: the defaults file stays the complete,
 * true list of what can be configured.
 */
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Conf } from '../../shared/conf.js';

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

test.run();

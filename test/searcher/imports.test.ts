/**
 * The searcher is separately deployable: nothing under searcher/ may import
 * from crawler/, by relative path, absolute path or package self-reference,
 * statically or dynamically.
 */
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const root = path.resolve(import.meta.dirname, '..', '..');
const crawler = path.join(root, 'crawler');
const SPEC = /(?:\bimport|\bexport)\s[^'"]*?\bfrom\s*['"]([^'"]+)['"]|\bimport\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]|\brequire\s*\(\s*['"]([^'"]+)['"]/g;

export function specifiers(src: string): string[] {
  return [...src.matchAll(SPEC)].map((m) => (m[1] ?? m[2] ?? m[3] ?? m[4])!);
}

/** Whether a specifier in `file` lands in crawler/. */
export function intoCrawler(file: string, spec: string): boolean {
  if (/^hazelnut\/crawler(\/|$)/.test(spec)) return true;
  if (!spec.startsWith('.') && !path.isAbsolute(spec) && !spec.startsWith('file:')) return false;
  const target = spec.startsWith('file:') ? new URL(spec).pathname : path.resolve(path.dirname(file), spec);
  const rel = path.relative(crawler, target);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function* sources(dir: string): Generator<string> {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* sources(p);
    else if (/\.(ts|js|mjs|cjs)$/.test(e.name)) yield p;
  }
}

test('no file under searcher/ imports anything from crawler/', () => {
  const bad: string[] = [];
  let files = 0;
  let imports = 0;
  for (const f of sources(path.join(root, 'searcher'))) {
    files++;
    for (const spec of specifiers(fs.readFileSync(f, 'utf8'))) {
      imports++;
      if (intoCrawler(f, spec)) bad.push(`${path.relative(root, f)} → ${spec}`);
    }
  }
  assert.ok(files >= 15 && imports >= 50, `scanned ${files} files, ${imports} imports`);
  assert.equal(bad, []);
});

const f = path.join(root, 'searcher', 'x.ts');
const CASES: [src: string, spec: string[], crawls: boolean[]][] = [
  ["import a from '../crawler/x.js';", ['../crawler/x.js'], [true]],
  ["import { b } from '../shared/conf.js';", ['../shared/conf.js'], [false]],
  ["export * from '../crawler/cli.js';", ['../crawler/cli.js'], [true]],
  ["const m = await import('../crawler/y.js');", ['../crawler/y.js'], [true]],
  ["import '../crawler/side-effect.js';", ['../crawler/side-effect.js'], [true]],
  ["const r = require('hazelnut/crawler/cli');", ['hazelnut/crawler/cli'], [true]],
  [`import x from '${path.join(root, 'crawler', 'z.js')}';`, [path.join(root, 'crawler', 'z.js')], [true]],
  ["import type { T } from './http/../../crawler/t.js';", ['./http/../../crawler/t.js'], [true]],
  ["import h from 'hono';", ['hono'], [false]],
  ["import c from '../crawlerish/x.js';", ['../crawlerish/x.js'], [false]],
];
for (const [src, spec, crawls] of CASES)
  test(`scan: ${src}`, () => {
    assert.equal(specifiers(src), spec);
    assert.equal(spec.map((s) => intoCrawler(f, s)), crawls);
  });

test.run();

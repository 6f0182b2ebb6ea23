/**
 * Every package install the README or CI shows keeps apt from taking what
 * it should not: `--no-install-recommends` (only what is needed) and
 * `--no-remove` (on a machine whose Node.js came from elsewhere, a plain
 * install can remove it to satisfy a dependency).
 */
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const root = path.resolve(import.meta.dirname, '..');

/** The `apt(-get) install …` commands of a text, each with its line, joined across a Markdown line break. */
function aptInstalls(text: string): { line: number; command: string }[] {
  const out: { line: number; command: string }[] = [];
  const lines = text.split('\n');
  lines.forEach((l, i) => {
    const at = l.search(/\bapt(-get)?\s+install\b/);
    if (at < 0) return;
    out.push({ line: i + 1, command: `${l.slice(at)} ${lines[i + 1] ?? ''}`.replace(/[`)].*$/, '').trim() });
  });
  return out;
}

test('aptInstalls finds each install with the flags after it, across a wrapped line', () => {
  const cases: [string, string[]][] = [
    ['run `sudo apt-get install --no-install-recommends --no-remove g++` first', ['apt-get install --no-install-recommends --no-remove g++']],
    ['(`sudo apt-get install\n--no-install-recommends --no-remove rsync`); then', ['apt-get install --no-install-recommends --no-remove rsync']],
    ['apt install chromium', ['apt install chromium']],
    ['fetched with `apt-get download` into', []],
  ];
  for (const [text, want] of cases) assert.equal(aptInstalls(text).map((c) => c.command), want, text);
});

test('every apt install in the README and .ci/run has --no-install-recommends and --no-remove', () => {
  for (const file of ['README.md', '.ci/run']) {
    const installs = aptInstalls(fs.readFileSync(path.join(root, file), 'utf8'));
    assert.ok(installs.length > 0, `${file} installs something`);
    for (const { line, command } of installs)
      assert.ok(/--no-install-recommends\b/.test(command) && /--no-remove\b/.test(command), `${file}:${line}: ${command}`);
  }
});

test.run();

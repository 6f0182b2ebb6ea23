/**
 * The top-level Markdown files stay true to the repository: every relative
 * link names an existing file, every `#anchor` an existing heading (GitHub's
 * slugs), every command the README's command tables show exists in
 * `hazelnut help`, and every command there has a row in those tables.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { COMMANDS } from '../crawler/cli.js';

const root = path.resolve(import.meta.dirname, '..');

/** Heading text as GitHub renders it: links to their text, code and emphasis markers and HTML tags gone. */
function renderedText(md: string): string {
  return md
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[`*]|(^|\s)_+|_+(?=\s|$)/g, '$1')
    .trim();
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function githubSlug(heading: string): string {
  return renderedText(heading)
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Lines outside fenced code blocks, with their 1-based numbers. */
function proseLines(md: string): { text: string; line: number }[] {
  const out: { text: string; line: number }[] = [];
  let fence: string | null = null;
  md.split('\n').forEach((text, i) => {
    const m = /^\s{0,3}(`{3,}|~{3,})/.exec(text);
    if (m && (fence === null || m[1]!.startsWith(fence))) fence = fence === null ? m[1]! : null;
    else if (fence === null) out.push({ text, line: i + 1 });
  });
  return out;
}

/** Every anchor a document has: its ATX headings' slugs (repeats get -1, -2, …) and explicit `id`/`name` attributes. */
export function anchorsOf(md: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const { text } of proseLines(md)) {
    const h = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(text);
    if (h) {
      const slug = githubSlug(h[1]!);
      const n = seen.get(slug) ?? 0;
      seen.set(slug, n + 1);
      anchors.add(n ? `${slug}-${n}` : slug);
    }
    for (const m of text.matchAll(/\s(?:id|name)="([^"]+)"/g)) anchors.add(m[1]!);
  }
  return anchors;
}

/** Link targets outside code: inline links and images, reference definitions, HTML href/src. */
export function linksOf(md: string): { target: string; line: number }[] {
  const out: { target: string; line: number }[] = [];
  for (const { text, line } of proseLines(md)) {
    const prose = text.replace(/(`+)[^`]*?\1/g, '');
    for (const m of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) out.push({ target: m[1]!, line });
    const def = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(prose);
    if (def) out.push({ target: def[1]!, line });
    for (const m of prose.matchAll(/\s(?:href|src)="([^"]+)"/g)) out.push({ target: m[1]!, line });
  }
  return out;
}

/** What is wrong with each relative link and anchor of `file`, as `file:line: message`. */
export function brokenLinks(file: string, read: (f: string) => string | undefined): string[] {
  const md = read(file)!;
  const problems: string[] = [];
  for (const { target, line } of linksOf(md)) {
    if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(target)) continue; // another site or scheme
    const [rawPath, anchor] = target.split('#', 2) as [string, string | undefined];
    const linked = rawPath ? path.resolve(path.dirname(file), decodeURIComponent(rawPath)) : file;
    const where = `${path.basename(file)}:${line}`;
    if (rawPath && !fs.existsSync(linked)) {
      problems.push(`${where}: ${target}: no file ${path.relative(root, linked)}`);
      continue;
    }
    if (anchor === undefined) continue;
    const text = /\.md$/i.test(linked) ? read(linked) : undefined;
    if (text === undefined && /^L\d+(-L\d+)?$/.test(anchor)) continue; // GitHub's line anchors in a source file
    if (text === undefined) problems.push(`${where}: ${target}: #${anchor} points into a file that is not Markdown`);
    else if (!anchorsOf(text).has(decodeURIComponent(anchor).toLowerCase()))
      problems.push(`${where}: ${target}: no heading #${anchor} in ${path.basename(linked)}`);
  }
  return problems;
}

/** Cells of the tables whose first header cell is `command`, row by row (header and rule rows left out). */
export function commandTableRows(md: string): string[][] {
  const rows: string[][] = [];
  let inTable: boolean | null = null;
  for (const { text } of proseLines(md)) {
    if (!text.trim().startsWith('|')) {
      inTable = null;
      continue;
    }
    const cells = text
      .trim()
      .replace(/^\||\|$/g, '')
      .split(/(?<!\\)\|/)
      .map((c) => c.trim().replace(/\\\|/g, '|'));
    if (inTable === null) inTable = cells[0]!.toLowerCase() === 'command';
    else if (inTable && !cells.every((c) => /^:?-+:?$/.test(c))) rows.push(cells);
  }
  return rows;
}

/** The commands a command-table row names: its first cell's first word and every `hazelnut <command>` in its code. */
export function commandsInRow(cells: string[]): string[] {
  const names: string[] = [];
  const first = /^`([a-z][\w-]*)/.exec(cells[0] ?? '');
  if (first) names.push(first[1]!);
  for (const cell of cells)
    for (const code of cell.matchAll(/`([^`]+)`/g))
      for (const m of code[1]!.matchAll(/(?:^|[\s(])hazelnut(?:\s+(?:-conf\s+\S+|-D\s*\S+))*\s+([a-z][\w-]*)/g)) names.push(m[1]!);
  return names;
}

/** Command names `hazelnut help` prints. */
function helpCommands(): string[] {
  const r = spawnSync(process.execPath, [path.join(root, 'crawler', 'hazelnut.js'), 'help'], { encoding: 'utf8', timeout: 30_000 });
  assert.is(r.status, 0, r.stderr);
  const list = r.stdout.split('\n\n').find((p) => p.startsWith('Commands:'));
  assert.ok(list, `no Commands: section in\n${r.stdout}`);
  return list.split('\n').slice(1).map((l) => /^ {2}(\S+)/.exec(l)?.[1]).filter((c): c is string => c !== undefined);
}

const readMd = (f: string) => (fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : undefined);
const topLevelMd = fs.readdirSync(root).filter((f) => /\.md$/i.test(f)).map((f) => path.join(root, f));

test('GitHub heading slugs', () => {
  const table: [heading: string, slug: string][] = [
    ['Quick start', 'quick-start'],
    ['Your first crawl', 'your-first-crawl'],
    ['Deploying the searcher on its own machine', 'deploying-the-searcher-on-its-own-machine'],
    ['The `crawl` command', 'the-crawl-command'],
    ['Re-crawling (again!)', 're-crawling-again'],
    ['What is **new** in 0.2?', 'what-is-new-in-02'],
    ['See [the guide](docs/guide.md)', 'see-the-guide'],
    ['snake_case names', 'snake_case-names'],
    ['Über größe', 'über-größe'],
    ['A -- B', 'a----b'],
  ];
  for (const [h, slug] of table) assert.is(githubSlug(h), slug, h);
});

test('the link checker finds broken files and anchors, and ignores code and other sites', () => {
  const dir = fs.mkdtempSync(path.join(root, 'test', '.tmp-docs-'));
  try {
    const main = path.join(dir, 'MAIN.md');
    fs.writeFileSync(path.join(dir, 'OTHER.md'), '# Other page\n## Setup\n## Setup\n');
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'x');
    fs.writeFileSync(
      main,
      [
        '# Main', // 1
        'Good: [other](OTHER.md), [setup](OTHER.md#setup-1), [self](#main), [t](notes.txt), [web](https://example.com/x#y).', // 2
        'Bad: [gone](MISSING.md) and [anchor](OTHER.md#install) and [self](#nowhere).', // 3
        '`[in code](NOPE.md)` is not a link', // 4
        '```', // 5
        '# not a heading; [also code](NOPE.md)', // 6
        '```', // 7
        '[ref]: ./gone/ref.md', // 8
        '<a href="#not-a-heading">x</a> [t](notes.txt#frag) [line](notes.txt#L1-L2)', // 9
      ].join('\n'),
    );
    assert.equal(brokenLinks(main, readMd), [
      'MAIN.md:3: MISSING.md: no file ' + path.relative(root, path.join(dir, 'MISSING.md')),
      'MAIN.md:3: OTHER.md#install: no heading #install in OTHER.md',
      'MAIN.md:3: #nowhere: no heading #nowhere in MAIN.md',
      'MAIN.md:8: ./gone/ref.md: no file ' + path.relative(root, path.join(dir, 'gone', 'ref.md')),
      'MAIN.md:9: notes.txt#frag: #frag points into a file that is not Markdown',
      'MAIN.md:9: #not-a-heading: no heading #not-a-heading in MAIN.md',
    ]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('command tables: rows, escaped pipes, first words and hazelnut <command> in examples', () => {
  const md = [
    '| command | example |',
    '|---|---|',
    '| `readdb <webdb> (-stats \\| -dump <out>)` — read | `hazelnut readdb crawl/webdb -stats` |',
    '| `serve` (also `hazelnut-searcher`) | `hazelnut -D a=b search crawl x` then `npx hazelnut frob` |',
    '',
    '| property | default |',
    '|---|---|',
    '| `hazelnut notacommand` | 1 |',
  ].join('\n');
  const rows = commandTableRows(md);
  assert.equal(rows.map((r) => r.length), [2, 2]);
  assert.is(rows[0]![0], '`readdb <webdb> (-stats | -dump <out>)` — read');
  assert.equal(rows.map(commandsInRow), [['readdb', 'readdb'], ['serve', 'search', 'frob']]);
});

test('README.md and the other top-level Markdown files: every relative link and #anchor resolves', () => {
  assert.ok(topLevelMd.some((f) => path.basename(f) === 'README.md'));
  assert.equal(topLevelMd.flatMap((f) => brokenLinks(f, readMd)), []);
});

test('README command tables and `hazelnut help` list the same commands', () => {
  const help = helpCommands();
  assert.equal(help, [...COMMANDS.map((c) => c.name), 'help'], 'hazelnut help lists COMMANDS');
  const rows = commandTableRows(readMd(path.join(root, 'README.md'))!);
  assert.ok(rows.length >= 10, `found ${rows.length} command-table rows`);
  const shown = new Set(rows.flatMap(commandsInRow));
  assert.equal([...shown].filter((c) => !help.includes(c)), [], 'commands in README tables that hazelnut help does not know');
  assert.equal(COMMANDS.map((c) => c.name).filter((c) => !shown.has(c)), [], 'commands without a row in a README command table');
});

test.run();

/**
 * Runs every `test/bench/*.bench.ts` (or those whose name contains an argument:
 * `npm run bench -- fetch`), prints each result and rewrites BENCHMARKS.md with
 * the latest figures, the command and the machine. A bench module exports a
 * default async function returning a titled Markdown section; where a baseline
 * exists it measures it in the same run and reports ratios against it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export interface BenchResult {
  title: string;
  /** Markdown: a table or lines of figures, ratios beside their baseline. */
  markdown: string;
}

const dir = import.meta.dirname;
const filters = process.argv.slice(2);
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();

const outFile = path.join(dir, '..', '..', 'BENCHMARKS.md');
const previous = fs.existsSync(outFile) ? fs.readFileSync(outFile, 'utf8') : '';
const sections = new Map<string, string>();
for (const m of previous.matchAll(/^<!-- bench:(\S+) -->\n([\s\S]*?)^<!-- \/bench:\1 -->$/gm)) sections.set(m[1]!, m[2]!);

for (const f of files) {
  const name = f.replace(/\.bench\.ts$/, '');
  process.stderr.write(`bench ${name} …\n`);
  const mod = (await import(pathToFileURL(path.join(dir, f)).href)) as { default: () => Promise<BenchResult> };
  const t0 = Date.now();
  const r = await mod.default();
  const body = `## ${r.title}\n\n${r.markdown.trim()}\n\n_Run ${new Date().toISOString().slice(0, 10)}, ${((Date.now() - t0) / 1000).toFixed(1)} s._\n`;
  process.stdout.write(`\n${body}`);
  sections.set(name, body);
}

const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
const header = `# Benchmarks

Latest figures from \`npm run bench\` (one section per \`test/bench/*.bench.ts\`; \`npm run bench -- <name>\` reruns one).
Machine: ${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}.
Loopback benchmarks share the cores between server and client; expect 20–50 % noise between runs and compare ratios measured in the same run.
`;
const body = [...sections.entries()]
  .sort(([a], [b]) => a.localeCompare(b))
  .map(([k, v]) => `<!-- bench:${k} -->\n${v}<!-- /bench:${k} -->`)
  .join('\n\n');
fs.writeFileSync(outFile, `${header}\n${body}\n`);

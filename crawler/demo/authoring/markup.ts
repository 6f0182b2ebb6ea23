/**
 * @module crawler/demo/authoring/markup
 * The small text markup the demo pages are written in, turned into HTML.
 * Blocks are separated by blank lines: `## Heading`, `### Heading`, `- item`
 * lists, `1. item` lists, `| a | b |` tables (first row is the header), ```
 * fenced code, anything else a paragraph. Inline: `[text](target)`, `` `code` ``,
 * `**strong**`. A link target `wiki:/path` points at another demo host.
 */
import { escapeHtml } from '../../../shared/escape.js';
import { authoredOrigin, DEMO_HOSTS } from '../intranet.js';

/** `wiki:/a.html` → `http://wiki.kestrel.test/a.html`; other targets unchanged. */
export function resolveTarget(target: string): string {
  const m = /^([a-z]+):(\/.*)$/.exec(target);
  if (!m) return target;
  const host = DEMO_HOSTS.find((h) => h.key === m[1]);
  if (!host) throw new Error(`unknown demo host in link target ${target}`);
  return authoredOrigin(host) + m[2];
}

export function inline(text: string): string {
  return escapeHtml(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_m, t: string, href: string) => `<a href="${resolveTarget(href)}">${t}</a>`);
}

function cells(row: string): string[] {
  return row.trim().replace(/^\||\|$/g, '').split('|').map((c) => c.trim());
}

export function markup(src: string): string {
  const out: string[] = [];
  const blocks = src.trim().split(/\n\s*\n/);
  for (let i = 0; i < blocks.length; i++) {
    let block = blocks[i]!.replace(/^\n+|\s+$/g, '');
    if (block.startsWith('```')) {
      // A code block may contain blank lines: gather blocks up to the closing fence.
      while (!/\n```$/.test(block) && i + 1 < blocks.length) block += '\n\n' + blocks[++i]!.trimEnd();
      out.push(`<pre>${escapeHtml(block.replace(/^```\w*\n?/, '').replace(/\n?```$/, ''))}</pre>`);
      continue;
    }
    const lines = block.split('\n').map((l) => l.trim());
    const first = lines[0]!;
    if (first.startsWith('### ')) out.push(`<h3>${inline(first.slice(4))}</h3>`);
    else if (first.startsWith('## ')) out.push(`<h2>${inline(first.slice(3))}</h2>`);
    else if (lines.every((l) => l.startsWith('- ')))
      out.push(`<ul>\n${lines.map((l) => `<li>${inline(l.slice(2))}</li>`).join('\n')}\n</ul>`);
    else if (lines.every((l) => /^\d+\. /.test(l)))
      out.push(`<ol>\n${lines.map((l) => `<li>${inline(l.replace(/^\d+\. /, ''))}</li>`).join('\n')}\n</ol>`);
    else if (lines.every((l) => l.startsWith('|'))) {
      const [head, ...rows] = lines.map(cells);
      out.push(
        `<table>\n<tr>${head!.map((c) => `<th>${inline(c)}</th>`).join('')}</tr>\n` +
          rows.map((r) => `<tr>${r.map((c) => `<td>${inline(c)}</td>`).join('')}</tr>`).join('\n') +
          '\n</table>',
      );
    } else out.push(`<p>${inline(lines.join(' '))}</p>`);
    if (/^#{2,3} /.test(first) && lines.length > 1) out.push(markup(lines.slice(1).join('\n')));
  }
  return out.join('\n');
}

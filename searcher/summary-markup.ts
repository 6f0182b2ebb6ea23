/**
 * @module searcher/summary-markup
 * A summary as the results page, the JSON and OpenSearch responses and the
 * terminal show it. Every piece of page text is escaped in HTML. A heading's
 * end is an em dash, so the heading reads apart from the text after it; a
 * line break of code is a line break (`<br>` in HTML).
 */
import { escapeHtml } from '../shared/escape.js';
import type { Summary, SummaryPart } from './summary.js';

const HEADING_END = ' — ';

function partHtml(p: SummaryPart): string {
  if ('ellipsis' in p) return '<span class="ellipsis"> … </span>';
  if ('break' in p) return p.break === 'line' ? '<br>' : `<span class="heading-end">${HEADING_END}</span>`;
  return p.highlight ? `<mark>${escapeHtml(p.text)}</mark>` : escapeHtml(p.text);
}

/** HTML with hits in `<mark>` and every piece of page text escaped. */
export function summaryToHtml(s: Summary): string {
  return s.map(partHtml).join('');
}

/** Plain text (OpenSearch descriptions, JSON, the terminal): whitespace squeezed but for the line breaks of code. */
export function summaryToText(s: Summary): string {
  return s
    .map((p) => ('ellipsis' in p ? ' … ' : 'break' in p ? (p.break === 'line' ? '\n' : HEADING_END) : p.text))
    .join('')
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .trim();
}

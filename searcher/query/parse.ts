/**
 * @module searcher/query/parse
 * The query language, after Nutch's NutchAnalysis.jj: words are ANDed,
 * `-word` and `-"a phrase"` exclude, `+word` keeps a stop word, `"a phrase"`
 * must match as a phrase, `field:value` restricts (`title:`, `url:`,
 * `anchor:` on text; `site:`, `host:`, `type:`, `lang:`, `date:` as filters).
 * hazelnut adds `OR` between words, which Nutch lacked. An unknown `field:`
 * is plain text, as in Nutch. This layer is pure syntax over the raw string;
 * turning words into index terms is the analyzer's job (query/analyze.ts).
 * Nothing a user types throws except a malformed `date:` range, which Nutch
 * also refused.
 */
import { parseDay } from '../../shared/day.js';

export const TEXT_FIELDS = ['title', 'url', 'anchor'] as const;
export type TextField = 'default' | (typeof TEXT_FIELDS)[number];
export const FILTER_FIELDS = ['site', 'host', 'type', 'lang', 'date'] as const;
export type FilterField = (typeof FILTER_FIELDS)[number];

/** Words to match: one word, a phrase, or a compound the analyzer splits. */
export interface TextClause {
  kind: 'text';
  field: TextField;
  text: string;
  /** Written in double quotes. */
  quoted: boolean;
  /** `+word`: required even when a stop word. */
  plus: boolean;
  exclude: boolean;
}

/** `a OR b OR "c d"`: one of the alternatives must match. */
export interface OrClause {
  kind: 'or';
  alternatives: TextClause[];
}

export interface FilterClause {
  kind: 'filter';
  field: Exclude<FilterField, 'date'>;
  /** Lower-cased, as Nutch's RawFieldQueryFilter does. */
  value: string;
  exclude: boolean;
}

/** `date:yyyymmdd-yyyymmdd` (inclusive), or one day `date:yyyymmdd`. */
export interface DateClause {
  kind: 'date';
  from: string;
  to: string;
  exclude: boolean;
}

export type Clause = TextClause | OrClause | FilterClause | DateClause;

export interface ParsedQuery {
  clauses: Clause[];
  /** Set when the input was cut to the limits below. */
  truncated: boolean;
}

export class QuerySyntaxError extends Error {
  override name = 'QuerySyntaxError';
}

/** Longer input is cut: nobody types it, and every char costs analyzer work. */
export const MAX_QUERY_CHARS = 1000;
/** More clauses are dropped: each one costs a candidate lookup and a scoring pass (Lucene's maxClauseCount idea). */
export const MAX_CLAUSES = 32;

const FIELD_RE = /^([A-Za-z]+):(.*)$/s;

interface Token {
  text: string;
  quoted: boolean;
  sign: '' | '+' | '-';
  field?: string;
}

/** Splits raw input into signed, optionally fielded, optionally quoted tokens. */
function tokenize(input: string): Token[] {
  // Control characters count as whitespace; unbalanced quotes run to the end.
  const s = input.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
  const out: Token[] = [];
  let i = 0;
  while (i < s.length) {
    while (i < s.length && /\s/.test(s[i]!)) i++;
    if (i >= s.length) break;
    let sign: Token['sign'] = '';
    // `--force-with-lease` is a command-line option the user looks for, not an exclusion.
    if ((s[i] === '-' || s[i] === '+') && i + 1 < s.length && !/[\s-]/.test(s[i + 1]!)) sign = s[i++] as '+' | '-';
    let field: string | undefined;
    const fm = /^([A-Za-z]+):(?=\S)/.exec(s.slice(i, i + 40));
    if (fm && s[i + fm[0].length] === '"') {
      field = fm[1];
      i += fm[0].length;
    }
    if (s[i] === '"') {
      const end = s.indexOf('"', i + 1);
      const text = s.slice(i + 1, end < 0 ? s.length : end);
      i = end < 0 ? s.length : end + 1;
      out.push({ text, quoted: true, sign, field });
      continue;
    }
    let j = i;
    while (j < s.length && !/\s/.test(s[j]!) && s[j] !== '"') j++;
    const word = s.slice(i, j);
    i = j;
    const m = FIELD_RE.exec(word);
    if (m && m[2]) out.push({ text: m[2], quoted: false, sign, field: m[1] });
    else out.push({ text: word, quoted: false, sign });
  }
  return out;
}

function toClause(t: Token): TextClause | FilterClause | DateClause | undefined {
  const exclude = t.sign === '-';
  const field = t.field?.toLowerCase();
  if (field && (FILTER_FIELDS as readonly string[]).includes(field)) {
    const value = t.text.trim().toLowerCase();
    if (!value) return undefined;
    if (field === 'date') return { kind: 'date', ...dateRange(value), exclude };
    return { kind: 'filter', field: field as FilterClause['field'], value, exclude };
  }
  if (field && (TEXT_FIELDS as readonly string[]).includes(field))
    return { kind: 'text', field: field as TextField, text: t.text, quoted: t.quoted, plus: t.sign === '+', exclude };
  // Unknown field: the whole `name:value` is text, which the analyzer turns into a phrase.
  const text = t.field ? `${t.field}:${t.quoted ? `"${t.text}"` : t.text}` : t.text;
  return { kind: 'text', field: 'default', text, quoted: t.quoted, plus: t.sign === '+', exclude };
}

function dateRange(v: string): { from: string; to: string } {
  const m = /^(\d{8})-(\d{8})$/.exec(v);
  const [from, to] = m ? [m[1]!, m[2]!] : [v, v];
  if (!parseDay(from) || !parseDay(to))
    throw new QuerySyntaxError(`date:${v} is not a date range; write date:yyyymmdd-yyyymmdd (e.g. date:20240101-20241231)`);
  return from <= to ? { from, to } : { from: to, to: from };
}

/**
 * Parses a query. `OR` (upper case, between two positive text clauses) joins
 * them into one alternative; anywhere else it is the word "or".
 */
export function parseQuery(input: string): ParsedQuery {
  const truncated = input.length > MAX_QUERY_CHARS;
  const tokens = tokenize(truncated ? input.slice(0, MAX_QUERY_CHARS) : input);
  const clauses: Clause[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const isOr = (k: number) => tokens[k]?.text === 'OR' && !tokens[k]!.quoted && !tokens[k]!.sign && !tokens[k]!.field;
    const c = toClause(t);
    if (!c) continue;
    if (c.kind === 'text' && isOr(i) && !c.exclude) {
      const prev = clauses[clauses.length - 1];
      const next = tokens[i + 1] && toClause(tokens[i + 1]!);
      const positive = (x: Clause | undefined): x is TextClause | OrClause =>
        !!x && (x.kind === 'or' || (x.kind === 'text' && !x.exclude));
      if (positive(prev) && next && next.kind === 'text' && !next.exclude && !isOr(i + 1)) {
        const alts = prev.kind === 'or' ? prev.alternatives : [prev];
        clauses[clauses.length - 1] = { kind: 'or', alternatives: [...alts, next] };
        i++;
        continue;
      }
    }
    clauses.push(c);
  }
  const over = clauses.length > MAX_CLAUSES;
  return { clauses: over ? clauses.slice(0, MAX_CLAUSES) : clauses, truncated: truncated || over };
}

/** The query back as text (canonical form), for links such as "more from this site". */
export function formatQuery(q: ParsedQuery): string {
  const text = (c: TextClause) => {
    const sign = c.exclude ? '-' : c.plus ? '+' : '';
    const field = c.field === 'default' ? '' : `${c.field}:`;
    return `${sign}${field}${c.quoted || /\s/.test(c.text) ? `"${c.text.replace(/"/g, '')}"` : c.text}`;
  };
  return q.clauses
    .map((c) => {
      switch (c.kind) {
        case 'text':
          return text(c);
        case 'or':
          return c.alternatives.map(text).join(' OR ');
        case 'filter':
          return `${c.exclude ? '-' : ''}${c.field}:${c.value}`;
        case 'date':
          return `${c.exclude ? '-' : ''}date:${c.from}-${c.to}`;
      }
    })
    .join(' ');
}

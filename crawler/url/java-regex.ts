/**
 * @module crawler/url/java-regex
 * Nutch's rule files (regex-urlfilter.txt, regex-normalize.xml) are written
 * for java.util.regex. Most of that syntax is JavaScript's too; the parts that
 * are not, and that real rule files use, are translated here so a Nutch user's
 * files keep working:
 *
 * - Inline flags. JavaScript (V8 in Node 20) has no `(?i)`. A leading
 *   `(?i)`/`(?s)`/`(?m)` becomes a RegExp flag. A `(?i)` further in applies,
 *   as in Java, from there to the end of its enclosing group, and `(?i:…)` to
 *   its own group; each letter in that span is spelt out in both cases
 *   (`sid` → `[sS][iI][dD]`, `[a-f]` → `[a-fA-F]`). `(?-i)` switches it off.
 *   Escapes (`\x41`, `\u0041`) inside such a span stay case-sensitive.
 * - `\A`, `\z`, `\Z` anchors, and `\Q…\E` quoting.
 * - Java's `$n`/`${name}` replacement strings with `\` escapes (see
 *   `javaReplacement`), applied through a function so JavaScript's own `$&`,
 *   `` $` ``, `$'` specials can never fire by accident.
 *
 * Anything else JavaScript cannot compile (atomic groups, possessive
 * quantifiers) fails with the compiler's message, which the callers report
 * with the file and line.
 *
 * Case-insensitivity is always spelt out, never the RegExp `i` flag: V8's
 * linear-time engine, which takes over from backtracking when a match goes
 * astray (see `bounded-regex`), cannot run `i`, and Java's `(?i)` folds ASCII
 * only, which the spelt-out form matches exactly.
 */
import { boundBacktracking } from './bounded-regex.js';

const FLAG_RE = /^\(\?([a-zA-Z]*)(?:-([a-zA-Z]*))?([:)])/;

function caseless(c: string): string {
  const lo = c.toLowerCase();
  const up = c.toUpperCase();
  return lo === up ? c : `[${lo}${up}]`;
}

function escapeLiteral(s: string): string {
  return s.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
}

/** Translates a character class starting at `src[i] === '['`; returns the class and the index after it. */
function translateClass(src: string, i: number, ci: boolean): [string, number] {
  let out = '[';
  let j = i + 1;
  if (src[j] === '^') out += src[j++];
  if (src[j] === ']') out += '\\' + src[j++];
  const extra: string[] = [];
  while (j < src.length && src[j] !== ']') {
    const c = src[j]!;
    if (c === '\\') {
      out += src.slice(j, j + 2);
      j += 2;
      continue;
    }
    if (c === '[') throw new SyntaxError('nested character classes and && intersections are not supported');
    if (ci && /[a-zA-Z]/.test(c)) {
      if (src[j + 1] === '-' && src[j + 2] && /[a-zA-Z]/.test(src[j + 2]!)) {
        const a = c;
        const b = src[j + 2]!;
        out += `${a}-${b}`;
        const sameCase = (a === a.toLowerCase()) === (b === b.toLowerCase());
        if (sameCase) extra.push(`${swapCase(a)}-${swapCase(b)}`);
        j += 3;
        continue;
      }
      out += c;
      extra.push(swapCase(c));
      j++;
      continue;
    }
    out += c;
    j++;
  }
  if (j >= src.length) throw new SyntaxError('unterminated character class');
  return [out + extra.join('') + ']', j + 1];
}

function swapCase(c: string): string {
  return c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase();
}

/** Leading inline flags apply to the whole pattern: `s` and `m` become RegExp flags, `i` is spelt out. */
function leadingFlags(src: string): { flags: string; ci: boolean; rest: string } {
  let flags = '';
  let ci = false;
  let rest = src;
  for (let m = FLAG_RE.exec(rest); m && m[3] === ')' && !m[2]; m = FLAG_RE.exec(rest)) {
    for (const f of m[1]!) {
      if (!'ism'.includes(f)) throw new SyntaxError(`unsupported inline flag (?${f})`);
      if (f === 'i') ci = true;
      else if (!flags.includes(f)) flags += f;
    }
    rest = rest.slice(m[0].length);
  }
  return { flags, ci, rest };
}

/** A backslash escape at `i`: `\Q…\E` quoted, `\A`, `\z`, `\Z` anchors, `\p{…}` kept; returns the translation and where the pattern goes on. */
function translateEscape(rest: string, i: number, ci: boolean): [string, number] {
  const n = rest[i + 1];
  if (n === undefined) throw new SyntaxError('trailing backslash');
  if (n === 'Q') {
    const end = rest.indexOf('\\E', i + 2);
    const lit = rest.slice(i + 2, end < 0 ? rest.length : end);
    const out = ci ? [...lit].map((ch) => (/[a-zA-Z]/.test(ch) ? caseless(ch) : escapeLiteral(ch))).join('') : escapeLiteral(lit);
    return [out, end < 0 ? rest.length : end + 2];
  }
  if (n === 'A') return ['^', i + 2];
  if (n === 'z') return ['$(?![\\s\\S])', i + 2];
  if (n === 'Z') return ['(?=\\n?$(?![\\s\\S]))', i + 2];
  if ((n === 'p' || n === 'P') && rest[i + 2] === '{') {
    const end = rest.indexOf('}', i);
    return [rest.slice(i, end + 1), end + 1];
  }
  return ['\\' + n, i + 2];
}

/**
 * A group opening at `i`. Inline flags `(?i)` change case-insensitivity from
 * here, `(?i:…)` within the group only; `stack` keeps the outer state for
 * the `)` that closes a group. Returns the translation, where the pattern goes
 * on, and the case-insensitivity in force after the opening.
 */
function translateGroupOpen(rest: string, i: number, ci: boolean, stack: boolean[]): [string, number, boolean] {
  const m = FLAG_RE.exec(rest.slice(i));
  if (m && (m[1] || m[2])) {
    const on = m[1]!;
    const off = m[2] ?? '';
    for (const f of on + off) if (f !== 'i') throw new SyntaxError(`unsupported inline flag (?${f}) inside the pattern`);
    const next: boolean = on.includes('i') ? true : off.includes('i') ? false : ci;
    if (m[3] === ')') return ['', i + m[0].length, next];
    stack.push(ci);
    return ['(?:', i + m[0].length, next];
  }
  stack.push(ci);
  const named = /^\(\?<([A-Za-z][A-Za-z0-9]*)>/.exec(rest.slice(i));
  const head = named ? named[0] : rest.startsWith('(?', i) ? rest.slice(i, i + (rest[i + 2] === '<' ? 4 : 3)) : '(';
  return [head, i + head.length, ci];
}

/** Compiles a java.util.regex pattern as an equivalent JavaScript RegExp; throws SyntaxError. */
export function javaRegex(src: string): RegExp {
  boundBacktracking();
  const { flags, rest, ci: wholeCi } = leadingFlags(src);
  let ci = wholeCi;
  let out = '';
  const stack: boolean[] = [];
  let i = 0;
  while (i < rest.length) {
    const c = rest[i]!;
    let piece: string;
    if (c === '\\') [piece, i] = translateEscape(rest, i, ci);
    else if (c === '[') [piece, i] = translateClass(rest, i, ci);
    else if (c === '(') [piece, i, ci] = translateGroupOpen(rest, i, ci, stack);
    else if (c === ')') {
      if (!stack.length) throw new SyntaxError('unmatched )');
      ci = stack.pop()!;
      [piece, i] = [c, i + 1];
    } else if (c === '{' && /^\{\d+(,\d*)?\}/.test(rest.slice(i))) {
      piece = /^\{\d+(,\d*)?\}/.exec(rest.slice(i))![0];
      i += piece.length;
    } else [piece, i] = [ci && /[a-zA-Z]/.test(c) ? caseless(c) : c, i + 1];
    out += piece;
  }
  return new RegExp(out, flags);
}

type ReplacementPart = string | number;

/**
 * Parses a Java replacement string (`$4`, `${name}`, `\$` for a literal
 * dollar, `\\` for a backslash) into a function for String.replace.
 */
export function javaReplacement(repl: string, re: RegExp): (match: string, ...rest: unknown[]) => string {
  const groupCount = new RegExp(`${re.source}|`, re.flags).exec('')!.length - 1;
  const parts: (ReplacementPart | { name: string })[] = [];
  let lit = '';
  for (let i = 0; i < repl.length; i++) {
    const c = repl[i]!;
    if (c === '\\' && i + 1 < repl.length) {
      lit += repl[++i];
    } else if (c === '$' && /\d/.test(repl[i + 1] ?? '')) {
      if (lit) parts.push(lit);
      lit = '';
      const n = Number(repl[++i]);
      if (n > groupCount) throw new SyntaxError(`the substitution refers to group ${n}, the pattern has ${groupCount}`);
      parts.push(n);
    } else if (c === '$' && repl[i + 1] === '{') {
      const end = repl.indexOf('}', i);
      if (end < 0) throw new SyntaxError('unterminated ${name} in the substitution');
      if (lit) parts.push(lit);
      lit = '';
      parts.push({ name: repl.slice(i + 2, end) });
      i = end;
    } else if (c === '$') {
      throw new SyntaxError("a '$' in the substitution must be followed by a group number (write \\$ for a dollar)");
    } else lit += c;
  }
  if (lit) parts.push(lit);
  return (match: string, ...rest: unknown[]) => {
    const last = rest[rest.length - 1];
    const named = typeof last === 'object' && last !== null ? (last as Record<string, string | undefined>) : undefined;
    let s = '';
    for (const p of parts) {
      if (typeof p === 'string') s += p;
      else if (typeof p === 'number') s += p === 0 ? match : ((rest[p - 1] as string | undefined) ?? '');
      else s += named?.[p.name] ?? '';
    }
    return s;
  };
}

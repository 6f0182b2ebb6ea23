/**
 * @module shared/index/related-terms
 * The related-terms file of a merged index (`related`): for each term, the
 * few terms the crawl's own pages associate with it most strongly
 * (crawler/index/associations), each with its association score, strongest
 * first. The searcher adds them to plain-English questions as optional
 * words of small weight (searcher/query/expansion). The file is optional:
 * an index written before it existed, or with no association strong enough,
 * has none, and its queries are not expanded.
 * Payload: deflated UTF-8 lines `term<TAB>related score<TAB>related score…`.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { readIndexFile, writeIndexFile } from './format.js';

export const RELATED_FILE = 'related';

export interface RelatedTerm {
  term: string;
  /** The association's strength (log-likelihood ratio G²). */
  score: number;
}

export interface RelatedTerms {
  /** The terms related to `term`, strongest first; empty when none. */
  of(term: string): readonly RelatedTerm[];
  /** Terms that have related terms. */
  readonly size: number;
}

export const NO_RELATED: RelatedTerms = { of: () => [], size: 0 };

/** Writes `<dir>/related` from a map of term → its related terms (strongest first). */
export function writeRelatedTerms(dir: string, related: ReadonlyMap<string, readonly RelatedTerm[]>): void {
  const lines: string[] = [];
  for (const [term, rel] of related) if (rel.length) lines.push([term, ...rel.map((r) => `${r.term} ${Math.round(r.score * 10) / 10}`)].join('\t'));
  writeIndexFile(dir, RELATED_FILE, zlib.deflateRawSync(Buffer.from(lines.join('\n'), 'utf8')));
}

/**
 * The related terms of the index in `dir`, NO_RELATED when it has no
 * related file. A term's line is split when first asked for, so a searcher
 * holds the file's text and the few entries its queries used.
 */
export function readRelatedTerms(dir: string): RelatedTerms {
  if (!fs.existsSync(path.join(dir, RELATED_FILE))) return NO_RELATED;
  const text = zlib.inflateRawSync(readIndexFile(dir, RELATED_FILE)).toString('utf8');
  const lines = new Map<string, string>();
  for (const line of text.split('\n')) {
    const tab = line.indexOf('\t');
    if (tab > 0) lines.set(line.slice(0, tab), line.slice(tab + 1));
  }
  const parsed = new Map<string, RelatedTerm[]>();
  return {
    size: lines.size,
    of(term) {
      let rel = parsed.get(term);
      if (rel) return rel;
      rel = (lines.get(term)?.split('\t') ?? []).map((e) => {
        const sp = e.lastIndexOf(' ');
        return { term: e.slice(0, sp), score: Number(e.slice(sp + 1)) };
      });
      parsed.set(term, rel);
      return rel;
    },
  };
}

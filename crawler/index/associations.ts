/**
 * @module crawler/index/associations
 * Related terms learned from the crawl's own pages, written beside a merged
 * index (shared/index/related-terms) for the searcher to add to questions
 * (searcher/query/expansion). Each page's opening is cut into passages of
 * about a sentence; two terms are associated when they share passages more
 * often than chance: Dunning's log-likelihood ratio G² over the 2×2 table of
 * passages, kept when significant at p < 0.001 and seen together in two
 * passages or more. Each term keeps its strongest few, and of those only the
 * mutual ones (each among the other's strongest), so a frequent term that
 * goes with everything (`git` on a Git site) is no one's related term.
 * Passages rather than sections or pages: words in one sentence name one
 * thing (ctrl+c → sigint, timestamp → date), where a section's words are
 * merely its topic. Words of more than a quarter of the pages, words of one
 * page and words with digits carry no association worth having and are left out.
 */
import type { DocEntries } from '../../shared/index/entries.js';
import { openIndex, type LoadedIndex } from '../../shared/index/reader.js';
import { writeRelatedTerms, type RelatedTerm } from '../../shared/index/related-terms.js';
import { FIELDS } from '../../shared/index/types.js';

/** Tokens a passage: about a sentence. */
export const PASSAGE_TOKENS = 12;
/** Tokens of a page read: its opening bounds the cost a page, as the body window bounds its score. */
export const OPENING_TOKENS = 2000;
/** Pages read at most, evenly spread over the index: enough for the statistics, and bounded memory and time in a large crawl. */
export const SAMPLE_PAGES = 20_000;
/** Related terms kept of a term, before the mutual ones are chosen. */
export const RELATED_A_TERM = 5;
/** G² at p < 0.001 with one degree of freedom. */
export const G2_SIGNIFICANT = 10.83;
/** Passages two terms must share: one is an accident of that sentence. */
const MIN_SHARED = 2;
const MIN_DF = 2;
const MAX_DF_SHARE = 0.25;

const xlnx = (k: number, e: number) => (k > 0 ? k * Math.log(k / e) : 0);

/**
 * Dunning's G² for two terms over `n` passages: `a` and `b` passages hold
 * each, `ab` both. Positive only when they meet more often than chance; 0 otherwise.
 */
export function g2(ab: number, a: number, b: number, n: number): number {
  if (n <= 0 || ab * n <= a * b) return 0;
  return 2 * (xlnx(ab, (a * b) / n) + xlnx(a - ab, (a * (n - b)) / n) + xlnx(b - ab, ((n - a) * b) / n) + xlnx(n - a - b + ab, ((n - a) * (n - b)) / n));
}

/** Whether a term can be associated: a word of three letters or more. */
export const wordLike = (t: string) => /^\p{L}{3,}$/u.test(t);

/** Units of association, each a list of distinct term ids: unit i is `ids[starts[i]]` up to `ids[starts[i + 1]]`. */
export interface Units {
  ids: Uint32Array;
  /** One more than there are units. */
  starts: Uint32Array;
}

/** Units from lists of term ids. */
export function unitsOf(lists: readonly (readonly number[])[]): Units {
  const starts = new Uint32Array(lists.length + 1);
  lists.forEach((l, i) => (starts[i + 1] = starts[i]! + l.length));
  return { ids: Uint32Array.from(lists.flat()), starts };
}

/** A growing Units, appended to one unit at a time. */
class UnitsBuffer {
  private ids: Uint32Array<ArrayBuffer> = new Uint32Array(1 << 16);
  private starts: Uint32Array<ArrayBuffer> = new Uint32Array(1 << 12);
  private n = 0;

  add(unit: ArrayLike<number>): void {
    const end = this.starts[this.n]!;
    if (end + unit.length > this.ids.length) this.ids = grow(this.ids, end + unit.length);
    if (this.n + 2 > this.starts.length) this.starts = grow(this.starts, this.n + 2);
    for (let k = 0; k < unit.length; k++) this.ids[end + k] = unit[k]!;
    this.starts[++this.n] = end + unit.length;
  }

  done(): Units {
    return { ids: this.ids.subarray(0, this.starts[this.n]), starts: this.starts.subarray(0, this.n + 1) };
  }
}

function grow(a: Uint32Array, need: number): Uint32Array<ArrayBuffer> {
  const b = new Uint32Array(Math.max(need, a.length * 2));
  b.set(a);
  return b;
}

/**
 * Each term's related terms from `units`,
 * over a vocabulary of `vocab` ids: of the RELATED_A_TERM of highest G²
 * among those significant and shared by MIN_SHARED units or more, those
 * that have the term among theirs too, strongest first.
 */
export function associate({ ids, starts }: Units, vocab: number): Map<number, { id: number; score: number }[]> {
  const n = starts.length - 1;
  const count = new Uint32Array(vocab);
  for (let i = 0; i < ids.length; i++) count[ids[i]!]!++;
  // The units of each term, as one array cut at `first`.
  const first = new Uint32Array(vocab + 1);
  for (let t = 0; t < vocab; t++) first[t + 1] = first[t]! + count[t]!;
  const at = first.slice(0, vocab);
  const unitsOf = new Uint32Array(first[vocab]!);
  for (let u = 0; u < n; u++) for (let k = starts[u]!; k < starts[u + 1]!; k++) unitsOf[at[ids[k]!]!++] = u;
  const shared = new Uint32Array(vocab);
  const touched: number[] = [];
  const strongest = new Map<number, { id: number; score: number }[]>();
  for (let a = 0; a < vocab; a++) {
    if (count[a]! < MIN_SHARED) continue;
    for (let j = first[a]!; j < first[a + 1]!; j++) {
      const u = unitsOf[j]!;
      for (let k = starts[u]!; k < starts[u + 1]!; k++) {
        const b = ids[k]!;
        if (b !== a && shared[b]!++ === 0) touched.push(b);
      }
    }
    const best: { id: number; score: number }[] = [];
    for (const b of touched) {
      const ab = shared[b]!;
      shared[b] = 0;
      if (ab < MIN_SHARED) continue;
      const score = g2(ab, count[a]!, count[b]!, n);
      if (score >= G2_SIGNIFICANT) best.push({ id: b, score });
    }
    touched.length = 0;
    if (best.length) strongest.set(a, best.sort((x, y) => y.score - x.score || x.id - y.id).slice(0, RELATED_A_TERM));
  }
  const out = new Map<number, { id: number; score: number }[]>();
  for (const [a, rel] of strongest) {
    const mutual = rel.filter((r) => strongest.get(r.id)!.some((x) => x.id === a));
    if (mutual.length) out.set(a, mutual);
  }
  return out;
}

/**
 * A page's passages: its title+content stream's first OPENING_TOKENS cut
 * every PASSAGE_TOKENS, each as its distinct terms that `use` accepts (two
 * or more; a passage of one term pairs nothing).
 */
export function passages(e: DocEntries, use: (id: number) => boolean, out: { add(unit: ArrayLike<number>): void }): void {
  const stream = new Int32Array(OPENING_TOKENS).fill(-1);
  let length = 0;
  for (let k = 0; k < e.terms.length; k++) {
    if (!use(e.terms[k]!)) continue;
    // Positions are LEB128 varints of the gaps from 0, entry k's ending at posEnd[k].
    for (let b = k ? e.posEnd[k - 1]! : 0, end = e.posEnd[k]!, p = 0; b < end; ) {
      let gap = 0;
      for (let shift = 0; ; shift += 7) {
        const byte = e.posData[b++]!;
        gap += (byte & 0x7f) * 2 ** shift;
        if (byte < 0x80) break;
      }
      p += gap;
      if (p >= OPENING_TOKENS) break;
      stream[p] = e.terms[k]!;
      length = Math.max(length, p + 1);
    }
  }
  const ids: number[] = [];
  for (let s = 0; s < length; s += PASSAGE_TOKENS) {
    ids.length = 0;
    for (let p = s; p < Math.min(length, s + PASSAGE_TOKENS); p++) {
      const t = stream[p]!;
      if (t >= 0 && !ids.includes(t)) ids.push(t);
    }
    if (ids.length > 1) out.add(ids);
  }
}

/** The passages of the live pages of an index (every page, or an even sample of SAMPLE_PAGES), and its vocabulary. */
export function indexPassages(reader: LoadedIndex): { units: Units; words: readonly string[] } {
  const words = reader.terms();
  const live = reader.meta.docCount - reader.meta.deletedCount;
  const dfs = FIELDS.filter((f) => f !== 'url').map((f) => reader.docFreqs(f));
  const use = new Uint8Array(words.length);
  for (let t = 0; t < words.length; t++) {
    let df = 0;
    for (const d of dfs) df = Math.max(df, d[t]!);
    use[t] = df >= MIN_DF && df <= live * MAX_DF_SHARE && wordLike(words[t]!) ? 1 : 0;
  }
  const units = new UnitsBuffer();
  const stride = Math.ceil(reader.meta.docCount / SAMPLE_PAGES);
  for (const [, , e] of reader.docEntries((id) => id % stride === 0 && !reader.isDeleted(id))) passages(e, (t) => use[t] === 1, units);
  return { units: units.done(), words };
}

/**
 * Learns the related terms of the index just written in `dir` from its own
 * pages and writes them beside it (shared/index/related-terms).
 */
export async function writeAssociations(dir: string): Promise<void> {
  const reader = await openIndex(dir, { verify: false });
  try {
    const { units, words } = indexPassages(reader);
    const related = new Map<string, RelatedTerm[]>();
    for (const [a, rel] of associate(units, words.length)) related.set(words[a]!, rel.map((r) => ({ term: words[r.id]!, score: r.score })));
    writeRelatedTerms(dir, related);
  } finally {
    reader.close();
  }
}

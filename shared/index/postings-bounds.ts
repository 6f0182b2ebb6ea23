/**
 * @module shared/index/postings-bounds
 * A block of postings' score bound: per field the largest frequency and the
 * shortest length among its documents holding the term there (BM25F rises
 * with the one and falls with the other, so the pair bounds the block's
 * score whatever k1, b and field weights a searcher ranks with), and its
 * documents' largest link score. The postings file keeps it beside the
 * blocks of a term of more than one block only (format 11): a term whose
 * postings fit one block, most terms (132,000 of 141,000 at 10k growth
 * pages, 0.5 KB a page of bounds), has it worked out from that block when
 * the term is read, from the field lengths and link scores a reader holds
 * whole, the same numbers the writer kept.
 */
import { BLOCK, type DecodedBlock } from './postings-codec.js';
import { FIELDS } from './types.js';

const F = FIELDS.length;

/** A block's bound, as the postings file's per-block columns hold it. */
export interface BlockBound {
  maxTf: number[];
  /** 0xffffffff for a field no document of the block holds the term in. */
  minLength: number[];
  maxBoost: number;
}

export const emptyBound = (): BlockBound => ({ maxTf: new Array<number>(F).fill(0), minLength: new Array<number>(F).fill(0), maxBoost: 0 });

/** Whether a term of `count` postings has its blocks' bounds kept in the file (format 11). */
export const boundsKept = (count: number) => count > BLOCK;

/** The bound of the decoded block `b` into `out`: `lengths[doc * F + f]` are the documents' field lengths, `boosts[doc]` their link scores. */
export function blockBound(b: DecodedBlock, lengths: Uint32Array, boosts: Float64Array, out: BlockBound): BlockBound {
  let boost = 0;
  for (let i = 0; i < b.n; i++) {
    // As the prior reads a boost: one not finite counts as none.
    const v = boosts[b.docs[i]!]!;
    if (Number.isFinite(v) && v > boost) boost = v;
  }
  out.maxBoost = boost;
  for (let f = 0; f < F; f++) {
    let maxTf = 0;
    let minLen = 0xffffffff;
    const tf = b.tf[f]!;
    for (let i = 0; i < b.n; i++)
      if (tf[i]) {
        maxTf = Math.max(maxTf, tf[i]!);
        minLen = Math.min(minLen, lengths[b.docs[i]! * F + f]!);
      }
    out.maxTf[f] = maxTf;
    out.minLength[f] = minLen;
  }
  return out;
}

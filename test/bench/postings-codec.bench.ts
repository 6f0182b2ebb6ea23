/**
 * The postings codec's choice, measured: blocks of 128 postings (document
 * gaps, a frequency a field) bit-packed at a width a column and
 * block (shared/index/postings-codec) against the same postings as LEB128
 * varints, decoded in Node: nanoseconds and bytes a posting, for a common
 * term (a document in two) and a rare one (one in a hundred).
 */
import type { BenchResult } from './run.js';
import { BLOCK, blockBuffers, decodeBlock, encodeBlock, type DecodedBlock } from '../../shared/index/postings-codec.js';
import { FIELDS } from '../../shared/index/types.js';
import { rng } from '../fixtures/rng.js';

const F = FIELDS.length;
const POSTINGS = 200_000;
const ROUNDS = 20;

/** Postings of a term in a document out of `1 / density`: gaps, small frequencies, mostly 0 outside the body. */
function postings(density: number): DecodedBlock[] {
  const rnd = rng(1);
  const blocks: DecodedBlock[] = [];
  let doc = -1;
  for (let i = 0; i < POSTINGS; i += BLOCK) {
    const b = blockBuffers();
    b.n = Math.min(BLOCK, POSTINGS - i);
    for (let k = 0; k < b.n; k++) {
      const gap = 1 + Math.floor(Math.log(1 - rnd()) / Math.log(1 - density));
      doc += gap;
      b.docs[k] = doc;
      b.tf.forEach((col, f) => (col[k] = f === F - 1 ? 1 + Math.floor(-Math.log(rnd()) * 3) : rnd() < 0.1 ? 1 + Math.floor(rnd() * 2) : 0));
    }
    blocks.push(b);
  }
  return blocks;
}

function putVarint(out: number[], v: number): void {
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
}

function encodeVarints(b: DecodedBlock, prevDoc: number): Uint8Array {
  const out: number[] = [b.n];
  for (let i = 0, prev = prevDoc; i < b.n; prev = b.docs[i++]!) putVarint(out, b.docs[i]! - prev - 1);
  for (let f = 0; f < F; f++) for (let i = 0; i < b.n; i++) putVarint(out, b.tf[f]![i]!);
  return Uint8Array.from(out);
}

function decodeVarints(bytes: Uint8Array, at: number, prevDoc: number, out: DecodedBlock): number {
  const n = bytes[at++]!;
  const next = () => {
    let v = 0;
    let shift = 1;
    for (;;) {
      const byte = bytes[at++]!;
      v += (byte & 0x7f) * shift;
      if (byte < 0x80) return v;
      shift *= 128;
    }
  };
  for (let i = 0, prev = prevDoc; i < n; i++) prev = out.docs[i] = prev + 1 + next();
  for (let f = 0; f < F; f++) for (let i = 0; i < n; i++) out.tf[f]![i] = next();
  out.n = n;
  return n;
}

/** Decodes every block `ROUNDS` times; ns a posting (the best round) and a checksum that keeps the work. */
function time(decodeAll: () => number): { ns: number; check: number } {
  let best = Infinity;
  let check = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = process.hrtime.bigint();
    check += decodeAll();
    best = Math.min(best, Number(process.hrtime.bigint() - t0));
  }
  return { ns: best / POSTINGS, check };
}

function measure(density: number) {
  const blocks = postings(density);
  const prev = blocks.map((_, k) => (k ? blocks[k - 1]!.docs[BLOCK - 1]! : -1));
  const packed = blocks.map((b, k) => encodeBlock(b, prev[k]!));
  const varints = blocks.map((b, k) => encodeVarints(b, prev[k]!));
  const out = blockBuffers();
  const sum = () => out.docs[out.n - 1]! + out.tf[F - 1]![0]!;
  const bits = time(() => packed.reduce((s, w, k) => (decodeBlock(w, 0, prev[k]!, out), s + sum()), 0));
  const leb = time(() => varints.reduce((s, v, k) => (decodeVarints(v, 0, prev[k]!, out), s + sum()), 0));
  if (bits.check !== leb.check) throw new Error('the two codecs decoded different postings');
  const bytes = (xs: { byteLength: number }[]) => xs.reduce((s, x) => s + x.byteLength, 0) / POSTINGS;
  return { bits, leb, packedBytes: bytes(packed), varintBytes: bytes(varints) };
}

export default async function bench(): Promise<BenchResult> {
  const rows = [0.5, 0.01].map((density) => {
    const m = measure(density);
    return `| one document in ${1 / density} | ${m.bits.ns.toFixed(1)} | ${m.leb.ns.toFixed(1)} | ${(m.leb.ns / m.bits.ns).toFixed(2)}× | ${m.packedBytes.toFixed(2)} | ${m.varintBytes.toFixed(2)} |`;
  });
  return {
    title: 'Postings codec: bit-packed blocks against varints',
    markdown: [
      `${POSTINGS.toLocaleString('en')} postings in blocks of ${BLOCK} (document gap, entry gap, ${F} frequencies each), decoded whole, the best of ${ROUNDS} rounds.`,
      '',
      '| term | bit-packed ns a posting | varints ns a posting | varints ÷ bit-packed | bit-packed bytes a posting | varint bytes a posting |',
      '|---|---|---|---|---|---|',
      ...rows,
    ].join('\n'),
  };
}

/**
 * @module searcher/query/synonyms
 * Query-time synonyms, read from `searcher.synonyms.file` (conf/synonyms.txt):
 * one group of equivalent words or phrases per line, comma-separated
 * (`vacation, holiday, annual leave`). A query word found in a group also
 * matches the group's other entries, which score at `searcher.synonyms.weight`
 * of a word the user typed (ht://Dig's synonyms factor was 0.5). The index is
 * untouched, so editing the file needs no re-index. Nutch had none; the
 * misses that remain on plain-English questions are mostly vocabulary
 * (reference/ranking.md §10). The rule-made variants of a word
 * (searcher/query/variants) are alternatives of the same kind, at their own
 * weight (`searcher.variants.weight`), carried here beside the file's.
 */
import { readConfText } from '../../shared/conf.js';
import { HzError } from '../../shared/errors.js';

export interface Synonyms {
  /** Lower-case word → the other entries of its groups. */
  readonly of: ReadonlyMap<string, readonly string[]>;
  readonly weight: number;
  /** What a word's derivational variant (searcher/query/variants) scores relative to the word; 0 adds none. */
  readonly derivedWeight: number;
}

export const NO_SYNONYMS: Synonyms = { of: new Map(), weight: 0, derivedWeight: 0 };

const norm = (s: string) => s.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();

/** Parses the text of a synonyms file; `file` names it in errors. */
export function parseSynonyms(text: string, file: string, weight: number, derivedWeight = 0): Synonyms {
  const of = new Map<string, string[]>();
  text.split(/\r?\n/).forEach((line, i) => {
    const body = line.replace(/#.*$/, '').trim();
    if (!body) return;
    const entries = [...new Set(body.split(',').map(norm).filter(Boolean))];
    if (entries.length < 2)
      throw new HzError('HZ_ERR_CONF_FILE', `${file}:${i + 1}: a synonym group needs at least two entries separated by commas`);
    for (const e of entries) {
      const others = of.get(e) ?? [];
      for (const o of entries) if (o !== e && !others.includes(o)) others.push(o);
      of.set(e, others);
    }
  });
  return { of, weight, derivedWeight };
}

export function readSynonyms(file: string | undefined, weight: number, derivedWeight = 0): Synonyms {
  if (!file) return { ...NO_SYNONYMS, derivedWeight };
  return parseSynonyms(readConfText(file, 'the synonyms file'), file, weight, derivedWeight);
}

/**
 * @module crawler/parse/language
 * The language of a page: what the page declares (`<html lang>`, a
 * Content-Language meta or header), else what eld detects from the first
 * `lang.analyze.max.length` characters of its text. Languages are ISO 639-1
 * codes where one exists (`en`, `de`), lower case, region dropped, so a
 * `lang:en` filter finds `en-GB` pages too. eld is used only here: on
 * documentation pages it is more than ten times faster than tinyld, which
 * took half of a page's parse, and it does not call English pages Berber or
 * Klingon (BENCHMARKS.md, "Crawl at scale").
 */

/** eld's smallest n-gram tables: its 60 languages in a fraction of the memory of its larger sets. */
const NGRAMS = 'extrasmall';
type Detector = { detect(text: string): { language: string } };
let loading: Promise<Detector> | undefined;

/**
 * eld and its n-gram tables, loaded once a thread and only when a page needs
 * detecting (a page that declares its language never costs their memory).
 * eld is an ES module that loads its tables asynchronously.
 */
function detector(): Promise<Detector> {
  return (loading ??= import('eld').then(async ({ eld }) => {
    if (!('load' in eld)) throw new Error('eld has no loader for its n-gram tables');
    await eld.load(NGRAMS);
    return eld;
  }));
}

/** Detection on fewer characters than this is guesswork; such pages get no language. */
const MIN_DETECT_CHARS = 40;

/** `en-GB` → `en`; `de, en` → `de`; null for anything that is not a language tag. */
function normalizeLanguage(tag: string | null | undefined): string | null {
  const first = tag?.split(',')[0]?.trim().toLowerCase().replace(/_/g, '-') ?? '';
  const primary = first.split('-')[0]!;
  return /^[a-z]{2,3}$/.test(primary) ? primary : null;
}

async function detectLanguage(text: string, maxLength: number): Promise<string | null> {
  const sample = text.length > maxLength ? text.slice(0, maxLength) : text;
  if (sample.replace(/[\s\p{P}\p{N}]/gu, '').length < MIN_DETECT_CHARS) return null;
  return normalizeLanguage((await detector()).detect(sample).language);
}

/** The first declared language that is a language tag, else the detected one. */
export function pageLanguage(declared: (string | null | undefined)[], text: string, maxLength: number): Promise<string | null> {
  for (const d of declared) {
    const l = normalizeLanguage(d);
    if (l) return Promise.resolve(l);
  }
  return detectLanguage(text, maxLength);
}

/**
 * @module searcher/settings
 * Everything the searcher reads from configuration, read and checked once
 * at start, so a bad property fails the start rather than a query.
 */
import type { Conf } from '../shared/conf.js';
import { HzError } from '../shared/errors.js';
import type { FeedbackParams } from './feedback.js';
import { parseFileUrlMap, type FileUrlPrefix } from './file-links.js';
import { readSynonyms, type Synonyms } from './query/synonyms.js';
import { rankParams, type RankParams } from './rank/params.js';
import type { SummaryOptions } from './summary.js';

export interface SearchSettings {
  rank: RankParams;
  stopWords: ReadonlySet<string>;
  synonyms: Synonyms;
  /** What a related term learned from the crawl scores relative to a typed word (searcher/query/expansion); 0 adds none. */
  relatedWeight: number;
  /** Pseudo-relevance feedback for questions (searcher/feedback); `pages` 0 is none. */
  feedback: FeedbackParams;
  candidates: number;
  /** Partial matches are added when fewer than this many documents hold every word; 0 never. */
  partialBelow: number;
  hitsPerSite: number;
  maxHitsPerPage: number;
  summary: SummaryOptions;
  pollInterval: number;
  /** file.url.map: where people open a hit from a file share. */
  fileUrlMap: FileUrlPrefix[];
  /** Titles and headings a worker holds for type-ahead (searcher/typeahead); 0 none. */
  typeAheadEntries: number;
  /** MiB an index reader keeps read or decoded, all its caches together (shared/index/cache-budget). */
  cacheMb: number;
}

export function searchSettings(conf: Conf): SearchSettings {
  return {
    rank: rankParams(conf),
    stopWords: new Set(conf.getList('searcher.stopwords').map((w) => w.toLowerCase())),
    synonyms: readSynonyms(
      conf.get('searcher.synonyms.file') ? conf.resolveFile(conf.get('searcher.synonyms.file')) : undefined,
      conf.getFloat('searcher.synonyms.weight'),
      nonNegativeWeight(conf, 'searcher.variants.weight'),
    ),
    relatedWeight: nonNegativeWeight(conf, 'searcher.related.weight'),
    feedback: {
      pages: Math.max(0, conf.getInt('searcher.feedback.pages')),
      terms: Math.max(1, conf.getInt('searcher.feedback.terms')),
      weight: Math.max(0, conf.getFloat('searcher.feedback.weight')),
      minWords: Math.max(1, conf.getInt('searcher.feedback.min.words')),
    },
    candidates: Math.max(10, conf.getInt('searcher.candidates')),
    partialBelow: Math.max(0, conf.getInt('searcher.partial.below')),
    hitsPerSite: conf.getInt('searcher.hits.per.site'),
    maxHitsPerPage: Math.max(1, conf.getInt('searcher.max.hits.per.page')),
    summary: { context: conf.getInt('searcher.summary.context'), length: conf.getInt('searcher.summary.length') },
    pollInterval: Math.max(100, conf.getDuration('searcher.index.poll.interval', 's')),
    fileUrlMap: parseFileUrlMap(conf.get('file.url.map')),
    typeAheadEntries: Math.max(0, conf.getInt('searcher.typeahead.entries')),
    cacheMb: Math.max(1, conf.getInt('searcher.cache.mb')),
  };
}

/** A weight of words added to a query (related terms, variants): 0 or more; a negative weight would rank a page lower for saying the thing in other words. */
function nonNegativeWeight(conf: Conf, name: string): number {
  const v = conf.getFloat(name);
  if (!(v >= 0)) throw new HzError('HZ_ERR_CONF_PROPERTY', `property ${name} must be 0 or more, not ${conf.get(name)}`);
  return v;
}

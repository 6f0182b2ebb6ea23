/**
 * @module searcher/rank/params
 * Ranking parameters from the `searcher.*` properties, read once per
 * snapshot. Defaults (conf/hazelnut-default.xml) were chosen on the judged
 * query set in test/judged/; round values, not a vector fitted to a few
 * dozen queries (reference/ranking.md §4).
 */
import type { Conf } from '../../shared/conf.js';
import { HzError } from '../../shared/errors.js';
import { FIELDS, type Field } from '../../shared/index/types.js';
import type { Bm25fParams } from './bm25f.js';
import type { ProximityParams } from './proximity.js';

export interface RankParams {
  bm25f: Bm25fParams;
  proximity: ProximityParams;
  /** Weight of the link prior boost/(boost+1); 0 turns it off. */
  linkWeight: number;
  /** The naming bonus of a page whose title holds an identifier the query names (searcher/rank/naming); 0 turns it off. */
  namingWeight: number;
  /** The weight of the anchor votes, the naming bonus's share from links naming the page with the query's words (searcher/rank/naming); 0 turns them off. */
  anchorVoteWeight: number;
}

export function rankParams(conf: Conf): RankParams {
  const fields = {} as Bm25fParams['fields'];
  for (const f of FIELDS) {
    fields[f] = { weight: nonNegative(conf, `searcher.bm25f.${f}.weight`), b: unit(conf, `searcher.bm25f.${f}.b`) };
  }
  fields.content.window = bodyWindow(conf);
  return {
    bm25f: { k1: nonNegative(conf, 'searcher.bm25f.k1'), fields },
    proximity: {
      weight: nonNegative(conf, 'searcher.proximity.weight'),
      window: Math.max(1, conf.getInt('searcher.proximity.window')),
      maxPositions: Math.max(1, conf.getInt('searcher.proximity.max.positions')),
    },
    linkWeight: nonNegative(conf, 'searcher.link.weight'),
    namingWeight: nonNegative(conf, 'searcher.naming.weight'),
    anchorVoteWeight: nonNegative(conf, 'searcher.naming.anchor.weight'),
  };
}

/** A copy with some numbers changed; used to try variants on the judged set. */
export function withParams(p: RankParams, change: { k1?: number; linkWeight?: number; proximityWeight?: number; weights?: Partial<Record<Field, number>>; b?: Partial<Record<Field, number>> }): RankParams {
  const fields = {} as Bm25fParams['fields'];
  for (const f of FIELDS) fields[f] = { ...p.bm25f.fields[f], weight: change.weights?.[f] ?? p.bm25f.fields[f].weight, b: change.b?.[f] ?? p.bm25f.fields[f].b };
  return {
    bm25f: { k1: change.k1 ?? p.bm25f.k1, fields },
    proximity: { ...p.proximity, weight: change.proximityWeight ?? p.proximity.weight },
    linkWeight: change.linkWeight ?? p.linkWeight,
    namingWeight: p.namingWeight,
    anchorVoteWeight: p.anchorVoteWeight,
  };
}

function nonNegative(conf: Conf, name: string): number {
  const v = conf.getFloat(name);
  if (v < 0) throw new HzError('HZ_ERR_CONF_PROPERTY', `property ${name} must not be negative, not ${v}`);
  return v;
}

/** searcher.bm25f.content.window: a positive number of terms; 0 or less, no window. */
function bodyWindow(conf: Conf): number {
  const v = conf.getInt('searcher.bm25f.content.window');
  return v > 0 ? v : Infinity;
}

function unit(conf: Conf, name: string): number {
  const v = conf.getFloat(name);
  if (v < 0 || v > 1) throw new HzError('HZ_ERR_CONF_PROPERTY', `property ${name} must be between 0 and 1, not ${v}`);
  return v;
}

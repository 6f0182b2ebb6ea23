/**
 * @module crawler/parse/thread
 * The fetcher's inline parse as the segment writer's thread runs it
 * (segments/segment-writer.ts): the thread rebuilds the configuration and the
 * plugins from the fetch's configuration, then parses each page it is
 * handed exactly as the fetch loop would, and gives back what the parse
 * statement stores.
 */
import { Conf, type ConfSnapshot } from '../../shared/conf.js';
import { parseParams, type ContentRecord, type FetchRecord } from '../../segments/segment.js';
import { threadModule } from '../../shared/thread-module.js';
import '../builtins.js';
import { loadCrawlerPlugins } from '../plugin/chains.js';
import { parseContent } from './parse-content.js';

/** The module a WriterThread loads to parse (its `parse.module`). */
export const PARSE_THREAD_MODULE = threadModule(import.meta.url).href;

export async function pageParser(snapshot: ConfSnapshot) {
  const conf = Conf.fromSnapshot(snapshot);
  const plugins = await loadCrawlerPlugins(conf);
  // `stored`: the body is stored beside the parse, which packs its text against it.
  return async (record: FetchRecord, content: ContentRecord, stored: boolean) => {
    return parseParams(await parseContent(plugins, conf, content, record), stored ? content.bytes : undefined);
  };
}

/**
 * @module searcher/snapshot
 * The searcher works from a snapshot: one opened merged index, the analyzer
 * it was built with, and the settings. Every request leases the current
 * snapshot and releases it when its response is done. When a new merged
 * index is published under `<crawl>/index/`, the provider opens it and
 * makes it current; the old one is closed once its last lease is released,
 * so requests in flight finish on the index they started with.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Analyzer } from '../shared/analysis/analyzer.js';
import { HzError } from '../shared/errors.js';
import { describeLock, isStale, readLock } from '../shared/lockfile.js';
import { INDEX_FILES } from '../shared/index/format.js';
import { currentIndex } from '../shared/index/publish.js';
import { openIndex } from '../shared/index/reader.js';
import { readRelatedTerms, type RelatedTerms } from '../shared/index/related-terms.js';
import type { IndexReader } from '../shared/index/types.js';
import { FetchedSegments } from './fetched-segments.js';
import type { SearchSettings } from './settings.js';
import { warmCommonest, warmUp } from './warm.js';
import { crawlPaths } from '../shared/crawl-dir.js';

export interface Snapshot {
  readonly crawlDir: string;
  readonly reader: IndexReader;
  readonly analyzer: Analyzer;
  readonly segments: FetchedSegments;
  readonly settings: SearchSettings;
  /** The index's related terms (shared/index/related-terms): none for an index without the file. */
  readonly related?: RelatedTerms;
  /** When this snapshot became current, ms. */
  readonly loadedAt: number;
  /** Identifies the published index (changes when a new one is installed). */
  readonly version: string;
}

export interface Lease {
  readonly snapshot: Snapshot;
  release(): void;
}

export interface SnapshotProvider {
  acquire(): Lease;
  /** Looks for a newly published index now; true when it switched. */
  refresh(): Promise<boolean>;
  close(): void;
}

/** How the searcher finds and opens a crawl's published merged index. */
export interface IndexSource {
  /** The directory and version of the index currently published in the crawl dir, if any. */
  locate(crawlDir: string): { dir: string; version: string } | undefined;
  /** Opens an index, its caches within `cacheMb` (searcher.cache.mb). */
  open(dir: string, cacheMb: number): Promise<IndexReader>;
}

/**
 * The published merged index: `<indexDir>/CURRENT` naming a generation
 * (shared/index/publish.ts), or a plain index directory at `<indexDir>`
 * (copied by hand), versioned by its meta file's time. `indexDir` is the
 * crawl's `index/` unless given (a shard's index, from `merge -shards`).
 */
export function indexSource(indexDir?: string): IndexSource {
  return {
    locate(crawlDir) {
      const plain = indexDir ?? crawlPaths(crawlDir).index;
      const cur = currentIndex(plain);
      if (cur) return { dir: cur.dir, version: cur.generation };
      try {
        return { dir: plain, version: `plain-${fs.statSync(path.join(plain, INDEX_FILES.meta)).mtimeMs}` };
      } catch {
        return undefined;
      }
    },
    // What every query reads is read before the index is current, so no query waits for it.
    open: async (dir, cacheMb) => (await openIndex(dir, { verify: false, cacheMb })).warm(),
  };
}

export const crawlIndexSource: IndexSource = indexSource();

interface Slot {
  snapshot: Snapshot;
  leases: number;
  retired: boolean;
}

export class CrawlSnapshots implements SnapshotProvider {
  private slot: Slot;
  private readonly segments: FetchedSegments;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  /** Called after a switch (for the log). */
  onSwitch?: (s: Snapshot) => void;
  /** Called when a newly published index cannot be opened; the old one stays current. */
  onError?: (e: unknown) => void;

  /** Called when a segment's summaries cannot be read from its index (the segments' onProblem). */
  set onSegmentProblem(f: ((message: string) => void) | undefined) {
    this.segments.onProblem = f;
  }

  private refreshing: Promise<boolean> | undefined;

  private constructor(
    readonly crawlDir: string,
    private readonly source: IndexSource,
    private readonly settings: SearchSettings,
    first: Snapshot,
  ) {
    this.segments = first.segments;
    this.slot = { snapshot: first, leases: 0, retired: false };
  }

  /** Opens the crawl's current index; fails with a message saying what is missing. */
  static async open(crawlDir: string, settings: SearchSettings, source: IndexSource = crawlIndexSource): Promise<CrawlSnapshots> {
    if (!fs.existsSync(crawlDir)) throw new HzError('HZ_ERR_NOT_FOUND', `crawl directory ${crawlDir} does not exist`);
    const found = source.locate(crawlDir);
    if (!found) {
      const lock = readLock(crawlDir);
      throw new HzError(
        'HZ_ERR_NOT_FOUND',
        lock && !isStale(lock)
          ? `${crawlDir} has no index yet: a ${lock.tool} is running there, ${describeLock(lock)}; the index appears when it ends, then run this again`
          : `${crawlDir} has no merged index (expected ${crawlPaths(crawlDir).index}); run 'hazelnut merge', or copy a crawl's index/ and segments/ here`,
      );
    }
    const segments = new FetchedSegments(crawlPaths(crawlDir).segments);
    return new CrawlSnapshots(crawlDir, source, settings, await makeSnapshot(crawlDir, source, settings, segments, found, { summaries: true }));
  }

  get current(): Snapshot {
    return this.slot.snapshot;
  }

  acquire(): Lease {
    const slot = this.slot;
    slot.leases++;
    let released = false;
    return {
      snapshot: slot.snapshot,
      release: () => {
        if (released) return;
        released = true;
        slot.leases--;
        if (slot.retired && slot.leases === 0) slot.snapshot.reader.close();
      },
    };
  }

  /** Switches to a newly published index, if any; concurrent calls share one attempt. */
  refresh(): Promise<boolean> {
    this.refreshing ??= this.switchIfNew().finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  private async switchIfNew(): Promise<boolean> {
    if (this.closed) return false;
    const found = this.source.locate(this.crawlDir);
    if (!found || found.version === this.slot.snapshot.version) return false;
    const next = await makeSnapshot(this.crawlDir, this.source, this.settings, this.segments, found, { summaries: false, commonest: true });
    if (this.closed) {
      next.reader.close();
      return false;
    }
    const old = this.slot;
    this.slot = { snapshot: next, leases: 0, retired: false };
    // The segments were indexed again before this index was merged: their summaries files are new too.
    this.segments.reopenSummaries();
    old.retired = true;
    if (old.leases === 0) old.snapshot.reader.close();
    this.onSwitch?.(next);
    return true;
  }

  /**
   * Works out the commonest term's scores on the current index after a start, between requests
   * (searcher/warm.ts warmCommonest); stops when the index is switched or closed. Resolves when done.
   */
  warmAfterStart(): Promise<void> {
    const snap = this.slot.snapshot;
    return warmCommonest(snap, () => !this.closed && this.slot.snapshot === snap);
  }

  /** Polls for a new index every `interval` ms (an unref'd timer: it never keeps the process alive). */
  watch(interval = this.settings.pollInterval): void {
    this.timer ??= setInterval(() => {
      this.refresh().catch((e) => this.onError?.(e));
    }, interval).unref();
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.slot.retired = true;
    if (this.slot.leases === 0) this.slot.snapshot.reader.close();
    this.segments.close();
  }
}

async function makeSnapshot(
  crawlDir: string,
  source: IndexSource,
  settings: SearchSettings,
  segments: FetchedSegments,
  found: { dir: string; version: string },
  warm: { summaries: boolean; commonest?: boolean },
): Promise<Snapshot> {
  const reader = await source.open(found.dir, settings.cacheMb);
  const snap = { crawlDir, reader, analyzer: reader.analyzer, segments, settings, loadedAt: Date.now(), version: found.version, related: readRelatedTerms(found.dir) };
  try {
    warmUp(snap, warm);
  } catch (e) {
    reader.close();
    throw e;
  }
  return snap;
}

/**
 * @module crawler/webdb/interface
 * The WebDB's interface: its rows and the operations each tool calls, apart
 * from the factory that picks a backend, so a backend implements these
 * without importing the module that imports it. In the WebDB `fetch_time` is
 * the *next* fetch time (CrawlDatum's meaning).
 */
import type { DbStatus, FetchStatus } from '../../shared/page-status.js';

/** One URL's record (Nutch's CrawlDatum), column for column. */
export interface PageRow {
  url: string;
  host: string;
  status: DbStatus;
  fetch_time: number;
  fetch_interval: number;
  retries: number;
  score: number;
  link_score: number;
  signature: string | null;
  modified_time: number;
  last_fetch_time: number | null;
  generate_time: number | null;
  protocol_status: string | null;
  etag: string | null;
  last_modified: string | null;
  metadata: string | null;
}

/** A seed URL as inject adds it. */
export interface Seed {
  url: string;
  host: string;
  score: number;
  /** Fetch interval, s. */
  interval: number;
  /** JSON object of the seed's metadata, or null. */
  meta: string | null;
}

/** One stored outlink of a page, as invertlinks reads it. */
export interface LinkRow {
  source: string;
  anchor: string;
  /** 1: a navigation link. */
  nav: number;
}

export interface Inlink {
  source: string;
  anchor: string;
}

/** A host's cached robots.txt (RFC 9309 §2.4: cached at most 24 h). */
export interface HostRobots {
  status: string;
  txt: string | null;
  fetched: number;
  failures: number;
  /** s, from robots.txt for our agent. */
  crawlDelay: number | null;
}

export interface InjectOps {
  /**
   * Adds the seeds that are new; with `overwrite`, known ones are reset to
   * unfetched and due `now` (their score, interval and metadata replaced).
   * One transaction.
   */
  inject(seeds: Iterable<Seed>, now: number, overwrite: boolean): { injected: number; overwritten: number; known: number };
  /**
   * Makes known pages due `now` when their `lastmod` (ms, from a sitemap) is
   * newer than their last fetch and they are not due already. One transaction.
   */
  dueIfModified(entries: Iterable<{ url: string; lastmod: number }>, now: number): number;
}

export interface GenerateOps {
  /**
   * Rows generate may select, best score first (then URL): not generated
   * within `delayMs` of `now`, and due by `dueBy` or due after `pullIn` (a
   * schedule that jumped ahead). Generate's rules decide among them.
   */
  generateCandidates(q: { delayMs: number; now: number; dueBy: number; pullIn: number }): Iterable<PageRow>;
  /** Marks URLs as generated at `now` (awaiting updatedb), in one transaction. */
  markGenerated(urls: Iterable<string>, now: number): void;
  /** Pages generated within `delayMs` of `now`, and the latest generate time among them. */
  awaitingUpdate(delayMs: number, now: number): { count: number; last: number | null };
  /** The earliest next fetch time of the pages not awaiting update. */
  nextDue(delayMs: number, now: number): number | null;
}

/** The tools that apply a segment to the WebDB, each once. */
export type ApplyingTool = 'updatedb' | 'invertlinks';

export interface UpdatedbOps {
  /** Whether `tool` has applied `segment`. */
  isApplied(tool: ApplyingTool, segment: string): boolean;
  markApplied(tool: ApplyingTool, segment: string, at: number): void;
  /** The page's OPIC score, if it is known. */
  pageScore(url: string): number | undefined;
  /** The stored rows of those of `urls` that are known, in one read (on a server, one round trip). */
  pagesOf(urls: readonly string[]): Map<string, PageRow>;
  /** Stores a page row, replacing the URL's previous one. */
  putPage(row: PageRow): void;
  /** Replaces the outlinks stored for `source`; returns how many were stored. */
  replaceOutlinks(source: string, outlinks: readonly { url: string; anchor: string; nav?: boolean }[]): number;
}

export interface InvertlinksOps {
  /**
   * Sets aside every URL one of `sources` links to now, or had inlinks from
   * before (one set-based query over indexed columns), in place of the last
   * ones set aside; returns how many.
   */
  stageLinkTargets(sources: Iterable<string>): number;
  /** The URLs set aside by stageLinkTargets after `after`, in order, at most `limit`. */
  stagedLinkTargets(after: string, limit: number): string[];
  /** The stored links to each of `targets` that has links, in one read: content links first, then in stored order. */
  linksToEach(targets: readonly string[]): Map<string, LinkRow[]>;
  clearInlinks(target: string): void;
  /** Stores inlinks of `target` in order, from distinct sources it has no inlink from (cleared before); returns how many. */
  addInlinks(target: string, inlinks: readonly Inlink[]): number;
}

export interface LinkDbReadOps {
  /** A URL's inlinks, in stored order or by source URL. */
  inlinks(target: string, order: 'stored' | 'source'): Inlink[];
  /** Every inlink, by target, then in stored order. */
  allInlinks(): Iterable<Inlink & { target: string }>;
}

export interface LinkrankOps {
  /**
   * Numbers the pages by URL (in byte order, the same on every backend),
   * from 0, for linkEdges and setLinkScores; returns how many there are.
   */
  numberPages(): number;
  /** (source, target) numbers of the stored links between numbered pages, once per stored link (linkrank drops repeats); navigation links left out when asked. */
  linkEdges(opts: { withNavigation: boolean }): Iterable<[number, number]>;
  /** Each numbered page's host and, when its content was fetched (db_fetched or db_notmodified), its signature (else null), in number order. */
  numberedSites(): Iterable<[host: string, signature: string | null]>;
  /** Sets the link score of each numbered page to `scores[its number]`, in one transaction. */
  setLinkScores(scores: ArrayLike<number>): void;
}

export interface ReaddbOps {
  page(url: string): PageRow | undefined;
  pageCount(): number;
  scoreStats(): { count: number; min: number | null; avg: number | null; max: number | null };
  retryCounts(): { retries: number; count: number }[];
  statusCounts(): { status: DbStatus; count: number }[];
  /** Pages per status and host, by status then host. */
  statusHostCounts(): { status: DbStatus; host: string; count: number }[];
  /** Every page, by URL. */
  pages(): Iterable<PageRow>;
  /** The n best-scored URLs at or above `min`, best first, then by URL. */
  topScores(n: number, min: number): { url: string; score: number }[];
}

export interface HostOps {
  robots(host: string): HostRobots | undefined;
  putRobots(host: string, r: HostRobots): void;
  /** Notes that a seed is on loopback, which lets the fetcher connect there. */
  markSeedsOnLoopback(): void;
  seedsOnLoopback(): boolean;
}

/** A fetch partition of a segment and who holds it. */
export interface Partition {
  part: number;
  /** The fetcher holding (or last holding) the lease; null while never claimed. */
  owner: string | null;
  /** ms: when the lease runs out; another fetcher may claim the partition after it. */
  leaseUntil: number | null;
  /** ms: when the partition was completely fetched; null until then. */
  done: number | null;
}

/** How far a fetch partition got, as its holders report it while they fetch. */
export interface PartitionProgress {
  part: number;
  /** URLs in the partition's fetchlist. */
  total: number;
  /** URLs with a fetch record, as last reported. */
  fetched: number;
  /** The holder the counts are of; `claimedAt`/`claimedFetched`: when it claimed the partition and how many were fetched then. */
  holder: string | null;
  claimedAt: number | null;
  claimedFetched: number;
  /** ms: the last report. */
  updatedAt: number | null;
}

/**
 * Fetch partitions of a segment made by `generate -numFetchers N`, leased to
 * fetchers (`fetch` on any machine). A claim is atomic across processes: two
 * fetchers never hold one partition's lease at once.
 */
export interface PartitionOps {
  /** Records partitions 0..count-1 of `segment`, unclaimed; `totals[i]`: URLs in partition i. */
  addPartitions(segment: string, count: number, totals?: readonly number[]): void;
  /**
   * Gives `owner` a lease until `now + leaseMs` on partition `part`, or when it
   * is not given, on the first partition not done whose lease is unclaimed,
   * expired at `now` or already `owner`'s. Returns the partition, or undefined
   * when none is claimable.
   */
  claimPartition(segment: string, owner: string, leaseMs: number, now: number, part?: number): number | undefined;
  /** Extends `owner`'s lease to `now + leaseMs`; false when `owner` does not hold it any more. */
  renewPartition(segment: string, part: number, owner: string, leaseMs: number, now: number): boolean;
  /** Marks the partition done at `now`; false when `owner` does not hold its lease any more. */
  finishPartition(segment: string, part: number, owner: string, now: number): boolean;
  /** The segment's partitions, by number; empty for a segment without partitions. */
  partitions(segment: string): Partition[];
  /**
   * Records that `holder` has `fetched` URLs of the partition fetched at `now`;
   * the first report of a new holder is its claim's (claimedAt, claimedFetched).
   */
  noteProgress(segment: string, part: number, holder: string, fetched: number, now: number): void;
  /** The segment's partitions' progress, by number (those with a report or a total). */
  partitionProgress(segment: string): PartitionProgress[];
  /** The names of the segments that have fetch partitions, oldest first. */
  partitionedSegments(): string[];
  /**
   * Keeps a partition's segment file (`fetchlist`: as generate made it;
   * `fetched`: as its fetcher completed it), compressed, in place of one kept
   * before: fetchers on other machines need no shared file system.
   */
  putPartitionFile(segment: string, part: number, kind: PartitionFileKind, data: Uint8Array): void;
  partitionFile(segment: string, part: number, kind: PartitionFileKind): Uint8Array | undefined;
}

export type PartitionFileKind = 'fetchlist' | 'fetched';

export interface WebDb extends InjectOps, GenerateOps, UpdatedbOps, InvertlinksOps, LinkDbReadOps, LinkrankOps, ReaddbOps, HostOps, PartitionOps {
  /** Runs `fn` in one transaction: all of its writes or none. */
  transaction<T>(fn: () => T): T;
  close(): void;
}

/** How a tool opens the WebDB: `bulk` for one that rewrites much of it (updatedb, invertlinks), which keeps a larger page cache. */
export interface WebDbOpenOptions {
  create?: boolean;
  readonly?: boolean;
  bulk?: boolean;
}

/** One fetch of the page, as a segment recorded it. */
export interface FetchDatum {
  status: FetchStatus;
  /** ms: when the fetch happened */
  fetchTime: number;
  /** Signature of the content fetched (from its parse), null without content. */
  signature: string | null;
  /** ms from the Last-Modified header, 0 when absent or unparsable. */
  modifiedTime: number;
  protocolStatus: string | null;
  etag: string | null;
  lastModified: string | null;
  /** Change to the page's own score from this fetch (OPIC: the cash it handed to its outlinks, negative). */
  scoreAdjust?: number;
  /** The row as generate saw it, for a page no longer in the WebDB. */
  generated?: Partial<Pick<PageRow, 'fetch_interval' | 'retries' | 'score'>>;
}

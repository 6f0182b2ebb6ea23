/**
 * @module crawler/parse/pool
 * The fetcher's inline parse, on a worker thread: the fetch loop hands over
 * each page and stores it once its parse comes back, so fetching and parsing
 * (the costliest step per page: HTML, outlink rules, signature, language)
 * use both cores. Pages go over in one message per event-loop turn. The
 * worker loads the same plugins from the same configuration; if it fails,
 * the pages it held are stored unparsed and parsed after the fetch.
 */
import { Worker } from 'node:worker_threads';
import type { Conf } from '../../shared/conf.js';
import type { ContentRecord, FetchRecord, ParseRecord } from '../../segments/segment.js';

/** Pages handed over and not yet parsed before `ready()` holds the fetcher back. */
const MAX_IN_FLIGHT = 256;

interface Pending {
  resolve: (p: ParseRecord | undefined) => void;
}

export class ParsePool {
  private readonly worker: Worker;
  private batch: { id: number; content: ContentRecord; fetch: FetchRecord }[] = [];
  private scheduled = false;
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();
  private waiting: (() => void)[] = [];
  private failed = false;

  constructor(conf: Conf) {
    this.worker = new Worker(new URL('./pool-worker.js', import.meta.url), {
      workerData: { confDir: conf.confDir, properties: conf.properties() },
    });
    this.worker.on('message', (m: { results: [number, ParseRecord][] }) => {
      for (const [id, parse] of m.results) {
        this.pending.get(id)?.resolve(parse);
        this.pending.delete(id);
      }
      this.wake();
    });
    this.worker.on('error', () => this.fail());
    this.worker.on('exit', () => this.fail());
  }

  /** The page's parse; undefined when the worker failed (the page is then parsed after the fetch). */
  parse(content: ContentRecord, fetch: FetchRecord): Promise<ParseRecord | undefined> {
    if (this.failed) return Promise.resolve(undefined);
    const id = this.nextId++;
    this.batch.push({ id, content, fetch });
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.send());
    }
    return new Promise((resolve) => this.pending.set(id, { resolve }));
  }

  /** Resolves when the worker is keeping up. */
  async ready(): Promise<void> {
    while (this.pending.size >= MAX_IN_FLIGHT && !this.failed) await new Promise<void>((r) => this.waiting.push(r));
  }

  /** Resolves once every page handed over has its parse (or the worker failed). */
  async drain(): Promise<void> {
    if (this.scheduled) this.send();
    while (this.pending.size > 0 && !this.failed) await new Promise<void>((r) => this.waiting.push(r));
  }

  async close(): Promise<void> {
    await this.drain();
    this.failed = true;
    await this.worker.terminate();
  }

  private send(): void {
    this.scheduled = false;
    if (this.batch.length === 0 || this.failed) return;
    this.worker.postMessage({ pages: this.batch });
    this.batch = [];
  }

  private fail(): void {
    if (this.failed) return;
    this.failed = true;
    for (const p of this.pending.values()) p.resolve(undefined);
    this.pending.clear();
    this.batch = [];
    this.wake();
  }

  private wake(): void {
    for (const r of this.waiting.splice(0)) r();
  }
}

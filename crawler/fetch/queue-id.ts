/**
 * @module crawler/fetch/queue-id
 * Which fetch queue a URL waits in (Nutch's queue mode): one per origin, or
 * with `fetcher.threads.per.host.by.ip` one per address, so hosts that share
 * a server share its politeness. Each host name is looked up once a fetch.
 */
import dns from 'node:dns/promises';
import { unbracket } from './address.js';

export class QueueIds {
  private readonly ipOf = new Map<string, Promise<string | undefined>>();

  constructor(private readonly byIp: boolean) {}

  /** The URL's queue; undefined when its host has no address. */
  async of(url: string): Promise<string | undefined> {
    const u = new URL(url);
    // file: URLs have no host to look up: they share one queue.
    if (!u.hostname) return u.protocol;
    if (!this.byIp) return u.origin;
    let ip = this.ipOf.get(u.hostname);
    if (!ip) {
      ip = dns.lookup(unbracket(u.hostname)).then((a) => a.address, () => undefined);
      this.ipOf.set(u.hostname, ip);
    }
    const addr = await ip;
    return addr && `${u.protocol}//${addr}`;
  }
}

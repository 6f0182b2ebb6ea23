/**
 * @module crawler/url/host-filter
 * urlfilter-host: accepts only URLs on the hosts listed in
 * `urlfilter.host.allow` (`host` or `host:port`), and every URL while the list
 * is empty. The one-shot crawl fills the list with its seed hosts
 * (`crawl.seed.hosts.only`), so an intranet crawl stays on the intranet
 * without editing a regex file — the step Nutch users most often missed
 * (crawl-urlfilter.txt's MY.DOMAIN.NAME).
 */
import type { Conf } from '../../shared/conf.js';
import type { PluginDescriptor, URLFilter } from '../../shared/plugin/extension-points.js';
import { hostName, plainHost } from './plain.js';

export class HostURLFilter implements URLFilter {
  private readonly hosts: Set<string>;
  constructor(hosts: Iterable<string>) {
    this.hosts = new Set([...hosts].map((h) => h.toLowerCase()));
  }

  filter(url: string): string | null {
    const plain = plainHost(url);
    if (plain !== null) return this.hosts.has(plain) || this.hosts.has(hostName(plain)) ? url : null;
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return null;
    }
    // A local file has no host to scope by: urlfilter-regex decides which files are crawled.
    if (u.protocol === 'file:' && !u.hostname) return url;
    return this.hosts.has(u.host) || this.hosts.has(u.hostname) ? url : null;
  }
}

export const urlfilterHost: PluginDescriptor<'url-filter'> = {
  id: 'urlfilter-host',
  point: 'url-filter',
  description: 'accept only URLs on the hosts in urlfilter.host.allow (the one-shot crawl sets it to the seed hosts)',
  create: (conf: Conf) => {
    const hosts = conf.getList('urlfilter.host.allow');
    return hosts.length ? new HostURLFilter(hosts) : null;
  },
};

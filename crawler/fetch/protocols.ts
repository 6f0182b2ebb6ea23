/**
 * @module crawler/fetch/protocols
 * The active protocol plugins by URL scheme. They are started only by the
 * commands that fetch (a protocol may need properties, such as
 * http.agent.name, that other commands do not). The first active plugin
 * claiming a scheme serves it.
 */
import type { Conf } from '../../shared/conf.js';
import { ProtocolFailure } from '../../shared/plugin/protocol-failure.js';
import { instantiate } from '../../shared/plugin/registry.js';
import type { PluginDescriptor, Protocol, ProtocolRequest, ProtocolResponse } from '../../shared/plugin/extension-points.js';

export interface Protocols {
  /** The plugin serving a URL's scheme, if one is active. */
  forUrl(url: string): Protocol | undefined;
  /** Fetches through the plugin of the URL's scheme; none throws a ProtocolFailure naming the scheme. */
  get(req: ProtocolRequest): Promise<ProtocolResponse>;
  close(): Promise<void>;
}

/** `http` for `http://…`. */
export function schemeOf(url: string): string {
  return url.slice(0, Math.max(0, url.indexOf(':'))).toLowerCase();
}

export function startProtocols(conf: Conf, descriptors: PluginDescriptor<'protocol'>[]): Protocols {
  const started = instantiate(conf, descriptors);
  const byScheme = new Map<string, Protocol>();
  for (const { impl } of started) for (const s of impl.schemes) if (!byScheme.has(s.toLowerCase())) byScheme.set(s.toLowerCase(), impl);
  const forUrl = (url: string) => byScheme.get(schemeOf(url));
  return {
    forUrl,
    get(req) {
      const p = forUrl(req.url);
      if (!p)
        return Promise.reject(
          new ProtocolFailure(`no active protocol plugin fetches ${schemeOf(req.url)}: URLs (hazelnut plugin list; plugin.includes)`, 'no_protocol'),
        );
      return p.get(req);
    },
    async close() {
      await Promise.all(started.map((p) => p.impl.close?.()));
    },
  };
}

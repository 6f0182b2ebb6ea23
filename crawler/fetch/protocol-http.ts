/**
 * @module crawler/fetch/protocol-http
 * The `protocol-http` plugin: http and https through the HTTP client
 * (http.ts) that the http.* properties describe, and the crawler's names as
 * HTTP and robots.txt know them.
 */
import type { Conf } from '../../shared/conf.js';
import { HzError } from '../../shared/errors.js';
import type { PluginDescriptor } from '../../shared/plugin/extension-points.js';
import { addressPolicy } from './address.js';
import { withCredentials } from './auth.js';
import { HttpClient } from './http.js';

/** `name/version (description; url; email)`, empty parts left out (Nutch's HttpBase.getAgentString). */
export function userAgent(conf: Conf): string {
  const name = conf.get('http.agent.name');
  if (!name)
    throw new HzError(
      'HZ_ERR_CONF_PROPERTY',
      "http.agent.name is empty: name your crawler in hazelnut-site.xml (<property><name>http.agent.name</name><value>MyBot</value></property>) or with -D http.agent.name=MyBot",
    );
  if (/[\s/;()]/.test(name)) throw new HzError('HZ_ERR_CONF_PROPERTY', `http.agent.name must be one product token (no spaces, / ; or parentheses), not ${JSON.stringify(name)}`);
  const version = conf.get('http.agent.version');
  const details = ['http.agent.description', 'http.agent.url', 'http.agent.email'].map((p) => conf.get(p)).filter(Boolean);
  return `${name}${version ? `/${version}` : ''}${details.length ? ` (${details.join('; ')})` : ''}`;
}

/** Product tokens matched against robots.txt groups, in precedence order: http.agent.name first, then http.robots.agents. */
export function robotsAgents(conf: Conf): string[] {
  const name = conf.get('http.agent.name');
  const listed = conf.getList('http.robots.agents').filter((a) => a !== '*');
  return [name, ...listed.filter((a) => a.toLowerCase() !== name.toLowerCase())];
}

/** The HTTP client the http.* properties describe (the User-Agent needs http.agent.name). */
export function httpClient(conf: Conf): HttpClient {
  const timeoutMs = conf.getDuration('http.timeout', 'ms');
  return new HttpClient({
    userAgent: userAgent(conf),
    timeoutMs,
    deadlineMs: Math.max(timeoutMs, conf.getDuration('http.timeout.total', 'ms')),
    contentLimit: conf.getInt('http.content.limit'),
    connectionsPerOrigin: conf.getInt('fetcher.threads.per.host'),
    acceptLanguage: conf.get('http.accept.language'),
    accept: conf.get('http.accept'),
    allowAddresses: addressPolicy(conf.getList('http.allow.addresses')),
    localAddress: conf.get('http.bind.address') || undefined,
  });
}

export const protocolHttp: PluginDescriptor<'protocol'> = {
  id: 'protocol-http',
  point: 'protocol',
  description: 'http and https: keep-alive, gzip/deflate/br, conditional GETs, http.content.limit, per-host credentials (http.auth.file)',
  create(conf) {
    const client = httpClient(conf);
    const authenticated = withCredentials(conf, client);
    return { schemes: ['http', 'https'], get: (req) => authenticated.get(req), close: () => client.close() };
  },
};

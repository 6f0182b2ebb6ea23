/**
 * @module crawler/fetch/address
 * Which IP addresses the fetcher may connect to. A crawled page chooses the
 * next URL (a link, a redirect, a DNS name it controls), so without a rule a
 * page on a cloud VM can steer the crawler at the metadata service that hands
 * out the machine's credentials. By default no connection goes to link-local
 * addresses (169.254.0.0/16, fe80::/10), to the known cloud metadata
 * addresses, or to loopback (127.0.0.0/8, ::1, 0.0.0.0) — loopback is allowed
 * when a seed is on it. Private ranges (10/8, 172.16/12, 192.168/16, fc00::/7)
 * stay allowed: they are what an intranet is. `http.allow.addresses` lets
 * any of the three kinds through where an intranet needs it.
 *
 * The check runs on the address actually connected to, after DNS, so a
 * name that resolves to a blocked address is blocked like the address.
 */
import net from 'node:net';
import type { Conf } from '../../shared/conf.js';
import { HzError } from '../../shared/errors.js';

export type AddressKind = 'loopback' | 'link-local' | 'metadata';
export const ADDRESS_KINDS: readonly AddressKind[] = ['loopback', 'link-local', 'metadata'];

/** The kinds of address a fetch may connect to besides public and private ones. */
export type AddressPolicy = ReadonlySet<AddressKind>;

/** Cloud metadata services: AWS, GCP and Azure (169.254.169.254), AWS ECS tasks, AWS over IPv6, Alibaba. */
const METADATA_V4 = new Set(['169.254.169.254', '169.254.170.2', '100.100.100.200']);
const METADATA_V6 = ['fd00:ec2::254'].map((m) => ipv6Groups(m)!);

/** A host without the brackets an IPv6 literal has in a URL (and in what undici hands over). */
export function unbracket(host: string): string {
  return host.replace(/^\[|\]$/g, '');
}

/** An IPv6 address as eight 16-bit groups; undefined when it is not one. */
function ipv6Groups(ip: string): number[] | undefined {
  if (!net.isIPv6(ip)) return undefined;
  let s = ip.toLowerCase();
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (v4) {
    const b = v4[1]!.split('.').map(Number);
    s = s.slice(0, -v4[1]!.length) + `${((b[0]! << 8) | b[1]!).toString(16)}:${((b[2]! << 8) | b[3]!).toString(16)}`;
  }
  const [head, tail] = s.split('::') as [string, string | undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
  return groups.map((g) => parseInt(g, 16));
}

/** An IPv4 address, the IPv4 an IPv6 address maps (::ffff:a.b.c.d), or the IPv6 groups. */
function canonical(ip: string): { v4?: string; v6?: number[] } {
  if (net.isIPv4(ip)) return { v4: ip };
  const g = ipv6Groups(ip);
  if (!g) return {};
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return { v4: `${g[6]! >> 8}.${g[6]! & 255}.${g[7]! >> 8}.${g[7]! & 255}` };
  return { v6: g };
}

/** What kind of special address this is, or undefined for an ordinary (public or private) one. */
export function addressKind(ip: string): AddressKind | undefined {
  const { v4, v6 } = canonical(unbracket(ip));
  if (v4) {
    if (METADATA_V4.has(v4)) return 'metadata';
    const [a, b] = v4.split('.').map(Number) as [number, number];
    if (a === 127 || a === 0) return 'loopback';
    if (a === 169 && b === 254) return 'link-local';
    return undefined;
  }
  if (!v6) return undefined;
  if (METADATA_V6.some((m) => m.every((x, i) => x === v6[i]))) return 'metadata';
  if (v6.slice(0, 7).every((x) => x === 0) && (v6[7] === 1 || v6[7] === 0)) return 'loopback';
  if ((v6[0]! & 0xffc0) === 0xfe80) return 'link-local';
  return undefined;
}

/** Why a connection to `ip` is not allowed, or null when it is. */
export function blockedReason(ip: string, allowed: AddressPolicy): string | null {
  const kind = addressKind(ip);
  if (!kind || allowed.has(kind)) return null;
  const what = { loopback: 'a loopback address', 'link-local': 'a link-local address', metadata: 'a cloud metadata address' }[kind];
  return `${ip} is ${what}; not connecting (allow it with http.allow.addresses=${kind})`;
}

/** True when a URL's host names loopback by itself (an address literal or localhost), as a seed on this machine does. */
export function isLoopbackHost(hostname: string): boolean {
  const h = unbracket(hostname).toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || (net.isIP(h) !== 0 && addressKind(h) === 'loopback');
}

/** The policy `http.allow.addresses` names (withLoopback adds loopback for a crawl whose seeds are there). */
export function addressPolicy(allow: string[]): AddressPolicy {
  const kinds = new Set<AddressKind>();
  for (const a of allow) {
    if (!(ADDRESS_KINDS as readonly string[]).includes(a))
      throw new HzError('HZ_ERR_CONF_PROPERTY', `http.allow.addresses: unknown kind ${JSON.stringify(a)} (use ${ADDRESS_KINDS.join(', ')})`);
    kinds.add(a as AddressKind);
  }
  return kinds;
}

/** The configuration with loopback added to http.allow.addresses when `yes` (a crawl whose seeds are on loopback). */
export function withLoopback(conf: Conf, yes: boolean): Conf {
  const allow = conf.getList('http.allow.addresses');
  return yes && !allow.includes('loopback') ? conf.with({ 'http.allow.addresses': [...allow, 'loopback'].join(',') }) : conf;
}

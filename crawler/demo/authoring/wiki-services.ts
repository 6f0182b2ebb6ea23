/**
 * @module crawler/demo/authoring/wiki-services
 * The wiki's service catalogue and team pages, written as data and rendered
 * into prose so that every service page has the same shape, as a real
 * catalogue does.
 */
import type { DemoPage } from './shell.js';

interface Team { slug: string; name: string; mission: string; channel: string; lead: string; office: string }
interface Service { slug: string; name: string; team: string; lang: string; purpose: string; deps: string[]; store: string; note: string }

export const TEAMS: Team[] = [
  { slug: 'platform', name: 'Platform', lead: 'Priya Raman', office: 'London', channel: '#platform', mission: 'Platform runs the clusters, databases, queues and networks that every other team builds on, and keeps the paved road for deploying services smooth.' },
  { slug: 'delivery', name: 'Delivery', lead: 'João Matos', office: 'Lisbon', channel: '#delivery', mission: 'Delivery owns the heart of Relay: taking in events, fanning them out to subscriptions and getting each one to its endpoint, with retries when the endpoint is down.' },
  { slug: 'devex', name: 'Developer Experience', lead: 'Chloé Tremblay', office: 'Toronto', channel: '#devex', mission: 'Developer Experience builds what customers touch first: the dashboard, the CLI, the SDKs and the public documentation.' },
  { slug: 'security', name: 'Security', lead: 'Jonas Becker', office: 'Berlin', channel: '#security', mission: 'Security keeps customer data and our own systems safe: identity, secrets, signing keys, audits and incident response for anything that smells like a breach.' },
  { slug: 'data', name: 'Data', lead: 'Seo-yeon Park', office: 'Seoul', channel: '#data', mission: 'Data owns metering, billing, usage analytics and the search index behind the dashboard event browser.' },
  { slug: 'support-engineering', name: 'Support Engineering', lead: 'Amara Okafor', office: 'Lisbon', channel: '#support-eng', mission: 'Support Engineering handles escalated customer tickets, writes tooling for the Support team and turns recurring questions into documentation and product fixes.' },
];

export const SERVICES: Service[] = [
  { slug: 'ingest-gateway', name: 'Ingest gateway', team: 'delivery', lang: 'Go', deps: ['auth', 'rate-limiter', 'event-log'], store: 'It is stateless; accepted events are written to the event log before the gateway answers 202.', purpose: 'The ingest gateway is the front door for events. It authenticates API keys, validates payloads against the event type schema, enforces rate limits and writes each accepted event to the event log.', note: 'The gateway answers within 50 milliseconds at the 99th percentile; if that number moves, the event log is almost always the reason.' },
  { slug: 'event-log', name: 'Event log', team: 'platform', lang: 'Kafka', deps: [], store: 'Events are kept for seven days in 96 partitions per region, replicated three times.', purpose: 'The event log is the durable, ordered record of every accepted event. Everything downstream reads from it, which means a replay is only a matter of resetting a consumer offset.', note: 'Partition counts are fixed per region; adding partitions reorders keys and needs a planned migration, see the decision record on [adopting Kafka](/decisions/adr-004-kafka-event-log.html).' },
  { slug: 'fanout', name: 'Fan-out', team: 'delivery', lang: 'Go', deps: ['event-log', 'subscription-store', 'delivery-queue'], store: 'It keeps a cached copy of subscriptions in memory, refreshed every ten seconds.', purpose: 'Fan-out reads events from the event log, finds every subscription whose filter matches and creates one delivery per matching endpoint.', note: 'A single event can fan out to thousands of endpoints for large tenants; fan-out batches those writes so the delivery queue is not flooded.' },
  { slug: 'delivery-workers', name: 'Delivery workers', team: 'delivery', lang: 'Go', deps: ['delivery-queue', 'signer', 'retry-scheduler', 'egress-proxy'], store: 'Attempt results are written to the attempts table in Postgres.', purpose: 'Delivery workers take deliveries from the queue, sign the payload, send the HTTP request to the customer endpoint through the egress proxy and record the attempt.', note: 'Workers limit concurrency per endpoint so a slow customer cannot take all capacity; the limit adapts to the endpoint response time.' },
  { slug: 'delivery-queue', name: 'Delivery queue', team: 'platform', lang: 'Redis', deps: [], store: 'Deliveries wait in sorted sets keyed by endpoint, in a Redis cluster with replicas.', purpose: 'The delivery queue holds deliveries that are ready to be sent, grouped by endpoint so that workers can apply per-endpoint limits.', note: 'Memory is the resource to watch: a customer endpoint that has been down for hours accumulates a large backlog, see the [backlog runbook](/runbooks/delivery-backlog-growing.html).' },
  { slug: 'retry-scheduler', name: 'Retry scheduler', team: 'delivery', lang: 'Go', deps: ['delivery-queue'], store: 'Scheduled retries live in Postgres, indexed by due time.', purpose: 'The retry scheduler puts failed deliveries back on the queue when their next attempt is due, following the exponential backoff schedule with jitter that customers see in the [retry documentation](docs:/guides/retries.html).', note: 'After the final attempt a delivery is marked failed and, if the customer enabled it, copied to the dead-letter store.' },
  { slug: 'signer', name: 'Signer', team: 'security', lang: 'Rust', deps: ['key-vault'], store: 'It holds no data; signing secrets are fetched from the key vault and cached for five minutes.', purpose: 'The signer computes the HMAC signature header for each delivery, so that customers can [verify that a webhook came from Relay](docs:/guides/verifying-signatures.html).', note: 'The signer supports two active secrets per endpoint during rotation, which is why customers can rotate without downtime.' },
  { slug: 'key-vault', name: 'Key vault', team: 'security', lang: 'managed service', deps: [], store: 'Secrets are encrypted with per-region master keys that never leave the hardware security modules.', purpose: 'The key vault stores endpoint signing secrets, API key hashes and internal service credentials.', note: 'Access to the vault is audited and limited to a handful of service identities; humans need a break-glass request.' },
  { slug: 'egress-proxy', name: 'Egress proxy', team: 'platform', lang: 'Envoy', deps: [], store: 'Stateless.', purpose: 'Every outgoing webhook request leaves through the egress proxy, which gives customers a fixed set of source addresses to allow in their firewalls and stops requests to private network ranges.', note: 'The list of egress addresses is published in the [documentation](docs:/guides/ip-allowlist.html); changing it requires three months of notice to customers.' },
  { slug: 'subscription-store', name: 'Subscription store', team: 'delivery', lang: 'Postgres', deps: [], store: 'Subscriptions, endpoints and filters live in the primary Postgres cluster.', purpose: 'The subscription store is the source of truth for which endpoints want which event types, with which filters and transformations.', note: 'Reads are served from replicas; writes go through the API so that the audit log sees them.' },
  { slug: 'api', name: 'Public API', team: 'devex', lang: 'TypeScript', deps: ['auth', 'subscription-store', 'audit-log', 'rate-limiter'], store: 'Stateless; it reads and writes the subscription store and the attempts table.', purpose: 'The public API is everything behind api.relay.example except event ingestion: endpoints, subscriptions, deliveries, keys, teams and usage. The [API reference](docs:/api/index.html) documents it.', note: 'Every endpoint is versioned; breaking changes ship only in a new major version, announced six months ahead.' },
  { slug: 'dashboard', name: 'Dashboard', team: 'devex', lang: 'TypeScript', deps: ['api', 'search-index'], store: 'Stateless single-page application served from the CDN.', purpose: 'The dashboard is where customers manage endpoints, inspect deliveries, replay failures and invite their colleagues.', note: 'The dashboard only uses the public API, never private endpoints; if the dashboard can do something, so can a customer script.' },
  { slug: 'auth', name: 'Auth', team: 'security', lang: 'Go', deps: ['key-vault'], store: 'Sessions live in Redis; API key hashes in the key vault.', purpose: 'Auth handles dashboard sign-in, single sign-on for enterprise tenants, API key verification and the permission checks behind team roles.', note: 'API key verification results are cached for 30 seconds, so a revoked key may work for up to half a minute.' },
  { slug: 'rate-limiter', name: 'Rate limiter', team: 'platform', lang: 'Go', deps: ['delivery-queue'], store: 'Token buckets live in the Redis cluster.', purpose: 'The rate limiter enforces per-tenant limits on ingestion and API calls, as documented under [rate limits](docs:/guides/rate-limits.html).', note: 'If the rate limiter cannot reach Redis it fails open for ingestion and closed for the management API; we decided that losing events is worse than a burst of load.' },
  { slug: 'audit-log', name: 'Audit log', team: 'security', lang: 'Go', deps: ['event-log'], store: 'Audit records are written to an append-only table and archived to object storage for seven years.', purpose: 'The audit log records every change a person or key makes to a tenant: who, what, when and from where. Customers can read it through the [audit log API](docs:/api/audit-logs-list.html).', note: 'Audit records are never deleted early, even on tenant deletion, because customers rely on them for compliance.' },
  { slug: 'billing-meter', name: 'Billing meter', team: 'data', lang: 'Python', deps: ['event-log'], store: 'Hourly usage aggregates live in the analytics warehouse.', purpose: 'The billing meter counts accepted events and successful deliveries per tenant and per hour, and sends the totals to the billing system at the end of each month.', note: 'The meter reads the event log independently of fan-out, so a delivery outage never affects invoices.' },
  { slug: 'search-index', name: 'Event search index', team: 'data', lang: 'OpenSearch', deps: ['event-log'], store: 'Indexes are kept per tenant and day, for the retention period of each plan.', purpose: 'The event search index powers the dashboard event browser, where customers search payloads and delivery attempts by field.', note: 'Indexing lags the event log by a few seconds; the dashboard shows the lag when it exceeds a minute.' },
  { slug: 'dead-letter-store', name: 'Dead-letter store', team: 'delivery', lang: 'object storage', deps: ['retry-scheduler'], store: 'Failed deliveries are stored as compressed files per tenant and day.', purpose: 'The dead-letter store keeps deliveries that failed every attempt, so customers can inspect and replay them after fixing their endpoint.', note: 'Replays from the dead-letter store go through the normal queue and count against the rate limit.' },
];

const teamName = (slug: string) => TEAMS.find((t) => t.slug === slug)!.name;

export const servicePages: DemoPage[] = SERVICES.map((s) => {
  const users = SERVICES.filter((o) => o.deps.includes(s.slug));
  const deps = s.deps.length
    ? `It depends on:\n\n${s.deps.map((d) => `- [${SERVICES.find((o) => o.slug === d)!.name}](/services/${d}.html)`).join('\n')}`
    : 'It depends on no other Relay service, which is why it is usually the last thing to look at and the first thing to protect.';
  const used = users.length
    ? `Used by ${users.map((u) => `[${u.name}](/services/${u.slug}.html)`).join(', ')}.`
    : 'No other service calls it directly.';
  return {
    path: `/services/${s.slug}.html`, section: 'services', title: `Service: ${s.name}`, reviewed: '2025-01-27',
    summary: s.purpose.split('. ')[0] + '.',
    body: `${s.purpose}

## Ownership

${s.name} is owned by the [${teamName(s.team)} team](/teams/${s.team}.html) and built with ${s.lang}. Alerts go to the ${teamName(s.team)} on-call rotation; see the [on-call guide](/howto/on-call.html) for how pages are routed.

## Dependencies

${deps}

${used}

## Data

${s.store}

## Notes

${s.note}`,
  };
});

export const teamPages: DemoPage[] = TEAMS.map((t) => {
  const owned = SERVICES.filter((s) => s.team === t.slug);
  const list = owned.length ? owned.map((s) => `- [${s.name}](/services/${s.slug}.html)`).join('\n') : '- No production services; the team owns internal tools and processes.';
  return {
    path: `/teams/${t.slug}.html`, section: 'teams', title: `Team: ${t.name}`, reviewed: '2025-01-27',
    body: `${t.mission}

The team is led by ${t.lead} and most of it sits in the ${t.office} office, with members in other time zones. Talk to them in ${t.channel}; for anything urgent in production, page the on-call engineer instead.

## Services

${list}

## Working with the team

Requests go into the team's intake board and are triaged twice a week. Small fixes are welcome as pull requests, following the [code review guide](/howto/code-review.html). The team's planning notes and decision records are linked from the [decision log](/decisions/index.html).`,
  };
});

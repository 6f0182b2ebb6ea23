/**
 * @module crawler/demo/authoring/wiki-reviews
 * Incident reviews and architecture decision records: the two kinds of page
 * that record why Relay is the way it is.
 */
import type { DemoPage } from './shell.js';

interface Incident { date: string; title: string; sev: number; minutes: number; what: string; cause: string; well: string; actions: string[]; runbook?: string }

const INCIDENTS: Incident[] = [
  { date: '2023-04-18', title: 'Delayed deliveries after a fan-out deploy', sev: 2, minutes: 47, what: 'For 47 minutes, about a third of webhooks were delivered between two and nine minutes late. No events were lost.', cause: 'A fan-out release changed how subscription filters were cached. Under load, the cache refresh held a lock for several seconds at a time, and fan-out consumers fell behind on the event log.', well: 'The latency alert fired within four minutes, and the rollback took six.', actions: ['Add a load test for subscription cache refresh to the release checklist.', 'Alert on fan-out lock wait time.'], runbook: 'delivery-latency-high' },
  { date: '2023-07-02', title: 'Expired certificate on the egress client', sev: 1, minutes: 95, what: 'For 95 minutes, deliveries to the 140 endpoints that require mutual TLS failed. They were retried successfully afterwards.', cause: 'The client certificate renewal relied on a DNS record that was deleted during a cleanup of unused records. The expiry alert existed but routed to a team channel nobody watched on a Sunday.', well: 'Retries meant no customer lost events; Support had a customer message out within twenty minutes.', actions: ['Route certificate expiry alerts to the pager.', 'Protect validation records from cleanup scripts.', 'Write the [certificate expiry runbook](/runbooks/certificate-expiry.html).'], runbook: 'certificate-expiry' },
  { date: '2023-09-21', title: 'Postgres ran out of disk', sev: 1, minutes: 38, what: 'The primary database stopped accepting writes for 38 minutes. The API returned errors and retries were not scheduled; event ingestion and first delivery attempts continued.', cause: 'The nightly job that drops expired partitions of the attempts table had been failing silently for nine days after a permissions change.', well: 'The on-call engineer found the cause quickly from the runbook and grew the volume without downtime.', actions: ['Alert when the partition job fails or does not run.', 'Add disk forecasting to the capacity dashboard.'], runbook: 'postgres-disk-full' },
  { date: '2023-12-05', title: 'Duplicate deliveries after a queue failover', sev: 2, minutes: 22, what: 'About 60,000 deliveries were sent twice during a Redis failover. Customers who deduplicate by event id saw no effect; some who do not reported double processing.', cause: 'During failover, deliveries acknowledged on the old primary were not yet replicated, and workers picked them up again from the new primary.', well: 'Every delivery carries a stable id, so the documented deduplication advice worked for most customers.', actions: ['Make workers check the attempts table before sending a delivery that was already attempted in the last minute.', 'Make [idempotency](docs:/guides/idempotency.html) more prominent in the docs.'] },
  { date: '2024-02-13', title: 'Ingestion errors during a traffic spike', sev: 2, minutes: 18, what: 'For 18 minutes, about 4 percent of ingestion requests failed with status 503 during a large customer product launch.', cause: 'The tenant had a contracted limit far above its usual traffic, so the burst was legitimate, but the gateway autoscaler reacted to CPU only and scaled too slowly.', well: 'The customer had warned Support a week earlier, and the on-call engineer knew who to call.', actions: ['Scale the gateway on request rate as well as CPU.', 'Share large launch plans with the on-call rotation automatically.'], runbook: 'ingest-errors' },
  { date: '2024-05-08', title: 'Signature verification failures after transformation launch', sev: 1, minutes: 64, what: 'For 64 minutes, webhooks to endpoints with a payload transformation carried a signature computed over the original payload, so verification failed for those customers.', cause: 'The transformation step was placed after signing in the worker pipeline. Tests covered signing and transformation separately but never together.', well: 'Customers reported it quickly and the feature flag turned it off at once.', actions: ['Add an end-to-end test that verifies signatures with the public SDK.', 'Write the [signature failures runbook](/runbooks/signature-failures-reported.html).'], runbook: 'signature-failures-reported' },
  { date: '2024-06-30', title: 'Hot partition in the event log', sev: 3, minutes: 130, what: 'One tenant used a constant partition key for all its events, so one partition carried most of the traffic and that tenant\'s deliveries lagged by up to twelve minutes. Other tenants were unaffected.', cause: 'The ingest API let customers set the partition key without limits, and the tenant had copied an example that used a fixed string.', well: 'Impact stayed contained to one tenant thanks to per-partition consumers.', actions: ['Add key spreading behind a feature flag.', 'Fix the example in the docs.'], runbook: 'event-log-consumer-lag' },
  { date: '2024-09-17', title: 'DNS resolver outage', sev: 2, minutes: 41, what: 'Our resolver provider failed in one region; 30 percent of delivery attempts failed with DNS errors for 41 minutes and were retried.', cause: 'The egress proxy used a single resolver provider without a fallback.', well: 'The runbook existed from a game day in August, and the switch to the secondary resolver took five minutes once someone found it.', actions: ['Fail over to the secondary resolver automatically.', 'Link the runbook from the alert itself.'], runbook: 'dns-resolution-failures' },
  { date: '2024-11-26', title: 'Rate limiter rejected traffic after a config change', sev: 2, minutes: 26, what: 'For 26 minutes, around 200 tenants received status 429 for ingestion well below their limits.', cause: 'A change to the limits configuration used requests per minute where the limiter expected requests per second. Review did not catch it, because the field name did not say which.', well: 'Rollback was quick and the change was small enough to understand immediately.', actions: ['Rename limit fields to include their unit.', 'Validate limit changes against current traffic before applying them.'], runbook: 'rate-limiter-misfiring' },
  { date: '2025-01-21', title: 'Dashboard sign-in loop', sev: 3, minutes: 55, what: 'Users of single sign-on could not sign in to the dashboard for 55 minutes; they were sent back to the sign-in page. API and deliveries were unaffected.', cause: 'A cookie attribute change rolled out to the dashboard before the matching change in auth.', well: 'The status page was updated quickly, and customers could still use API keys.', actions: ['Deploy auth and dashboard changes behind one flag.', 'Add a sign-in test with single sign-on to the dashboard probe.'], runbook: 'dashboard-down' },
];

const SEVERITY = ['', 'Severity 1: customers lost or received wrong data, or a core function was down', 'Severity 2: a core function was degraded for many customers', 'Severity 3: degraded for a few customers or a secondary function'];

export const incidentPages: DemoPage[] = INCIDENTS.map((i) => ({
  path: `/incidents/${i.date}.html`, section: 'incidents', title: `Incident review ${i.date}: ${i.title}`, reviewed: i.date,
  summary: i.what.split('. ')[0] + '.',
  body: `${SEVERITY[i.sev]}. Duration: ${i.minutes} minutes. This review is blameless: it describes how our systems and processes allowed the incident, not who made a mistake.

## What happened

${i.what}

## Why it happened

${i.cause}

## What went well

${i.well}

## Follow-up actions

${i.actions.map((a) => `- ${a}`).join('\n')}
${i.runbook ? `\nThe related runbook is [${i.runbook}](/runbooks/${i.runbook}.html).` : ''}`,
}));

interface Decision { n: number; slug: string; title: string; status: string; date: string; context: string; decision: string; consequences: string }

const DECISIONS: Decision[] = [
  { n: 1, slug: 'record-decisions', title: 'Record architecture decisions', status: 'Accepted', date: '2019-03-04', context: 'Decisions about Relay were made in meetings and chat, and new engineers could not find out why things were the way they were.', decision: 'We write a short decision record for every significant architectural choice, in this wiki, with context, decision and consequences. Records are never deleted; a changed mind gets a new record that supersedes the old one.', consequences: 'Writing a record takes an hour. Reading one saves new engineers days of archaeology.' },
  { n: 2, slug: 'postgres-for-state', title: 'Use Postgres for subscription and attempt state', status: 'Accepted', date: '2019-05-20', context: 'We needed a store for endpoints, subscriptions and delivery attempts with strong consistency and flexible queries for the dashboard.', decision: 'Use a managed Postgres cluster, with attempts partitioned by day so old data can be dropped cheaply.', consequences: 'Postgres is boring and well understood. Partition maintenance became a job we must watch, as the [2023 disk incident](/incidents/2023-09-21.html) showed.' },
  { n: 3, slug: 'exponential-backoff', title: 'Retry with exponential backoff and jitter', status: 'Accepted', date: '2019-06-11', context: 'Early Relay retried failed deliveries every minute, which hammered customer endpoints that were already struggling.', decision: 'Retry failed deliveries with exponential backoff starting at 30 seconds, doubling up to a maximum of six hours, with full jitter, for up to 24 hours in total. The schedule is documented for customers.', consequences: 'Recovering endpoints receive a gentle ramp instead of a flood. Some customers wanted faster retries; they can trigger a manual replay.' },
  { n: 4, slug: 'kafka-event-log', title: 'Adopt Kafka as the event log', status: 'Accepted', date: '2020-02-17', context: 'Events were stored in Postgres and polled by workers. At a few thousand events a second, polling load dominated the database.', decision: 'Write accepted events to Kafka, partitioned by tenant and partition key, and let fan-out, billing and search consume independently.', consequences: 'Consumers are decoupled and replays are cheap. We run a Kafka cluster, which needs expertise we had to hire.' },
  { n: 5, slug: 'hmac-signatures', title: 'Sign webhooks with HMAC-SHA256', status: 'Accepted', date: '2020-04-06', context: 'Customers need to know a webhook came from Relay and was not altered. Public-key signatures were considered.', decision: 'Sign each delivery with HMAC-SHA256 over the timestamp and body, with a per-endpoint secret, and allow two active secrets for rotation.', consequences: 'Verification is simple in every language. Secrets must be stored carefully on both sides.' },
  { n: 6, slug: 'kubernetes', title: 'Run services on Kubernetes', status: 'Accepted', date: '2021-01-25', context: 'Services ran on virtual machines configured by scripts, and deploys took forty minutes.', decision: 'Move all stateless services to managed Kubernetes with a shared deployment template owned by Platform.', consequences: 'Deploys take minutes and look the same for every service. Stateful systems stay on managed services.' },
  { n: 7, slug: 'monorepo', title: 'Keep services in one repository', status: 'Accepted', date: '2021-06-14', context: 'Twelve repositories drifted apart in tooling, and cross-service changes needed coordinated pull requests.', decision: 'Move every service and shared library into one repository with per-directory owners.', consequences: 'Cross-cutting changes are one review. Continuous integration must be smart about what to build.' },
  { n: 8, slug: 'seoul-region', title: 'Open a Seoul region', status: 'Accepted', date: '2023-10-09', context: 'Customers in Korea and Japan asked for data residency and lower latency.', decision: 'Run a full, independent Relay region in Seoul, with its own event log and databases; tenants choose a region at sign-up.', consequences: 'Operations are duplicated per region. It also led to the [Seoul office](handbook:/offices/seoul.html).' },
  { n: 9, slug: 'feature-flags', title: 'Ship risky changes behind feature flags', status: 'Accepted', date: '2024-05-27', context: 'The [signature incident](/incidents/2024-05-08.html) was stopped quickly only because the feature happened to have a flag.', decision: 'Every change to the delivery path ships behind a flag that can be turned off per tenant without a deploy.', consequences: 'Flags must be removed once a change is fully rolled out, or they pile up; see [feature flags](/howto/feature-flags.html).' },
  { n: 10, slug: 'typescript-api', title: 'Rewrite the public API in TypeScript', status: 'Superseded in part', date: '2022-03-07', context: 'The API was written in Python, while the dashboard and SDKs were TypeScript, and types were duplicated by hand.', decision: 'Rewrite the public API in TypeScript and generate the SDK types from the same schema.', consequences: 'One schema feeds the API, SDKs and [API reference](docs:/api/index.html). The ingest path stayed in Go for speed.' },
];

export const decisionPages: DemoPage[] = DECISIONS.map((d) => ({
  path: `/decisions/adr-${String(d.n).padStart(3, '0')}-${d.slug}.html`, section: 'decisions', title: `ADR ${d.n}: ${d.title}`, reviewed: d.date,
  summary: `${d.status}, ${d.date}.`,
  body: `**Status:** ${d.status} · **Date:** ${d.date}

## Context

${d.context}

## Decision

${d.decision}

## Consequences

${d.consequences}`,
}));

/**
 * @module crawler/demo/authoring/docs-guides
 * Relay's guides: the concepts and tasks customers read before the reference.
 */
import type { DemoPage } from './shell.js';

const g = (slug: string, title: string, body: string): DemoPage => ({
  path: `/guides/${slug}.html`, section: 'guides', title, reviewed: '2025-02-11', body,
});

export const guidePages: DemoPage[] = [
  g('quickstart', 'Quickstart: your first webhook in five minutes', `This guide sends one event through Relay to a test endpoint. You need a Relay account and an API key with the \`events:write\` and \`endpoints:write\` scopes.

1. Create an endpoint pointing at a request inspector, with [create an endpoint](/api/endpoints-create.html). Keep the signing secret from the response.
2. Subscribe it to the type \`demo.ping\` with [create a subscription](/api/subscriptions-create.html).
3. Send an event with [send an event](/api/events-send.html): \`{"type": "demo.ping", "payload": {"hello": "world"}}\`.
4. Within a second your inspector shows a POST with the payload and a \`Relay-Signature\` header.

Next, learn [how Relay works](/guides/how-relay-works.html) and how to [verify signatures](/guides/verifying-signatures.html) in your receiver.`),
  g('how-relay-works', 'How Relay works', `Relay sits between the systems that produce events and the endpoints that want to hear about them. You send an event once; Relay delivers it to every subscribed endpoint, retries when an endpoint is down, and keeps a record of every attempt.

Internally, an accepted event is written to a durable log before the API answers, so an accepted event is never lost. A fan-out stage matches it against subscriptions and creates one delivery per endpoint. Delivery workers sign each delivery, send it, and record the response. A delivery succeeds when the endpoint answers with a 2xx status within 15 seconds; anything else is retried following the [retry schedule](/guides/retries.html).

Ordering is guaranteed per endpoint for events with the same partition key, and only then. Delivery is at least once, so receivers should be [idempotent](/guides/idempotency.html).`),
  g('authentication', 'Authentication and API keys', `Every API call is authenticated with an API key sent as a bearer token: \`Authorization: Bearer <key>\`. Keys belong to a tenant, not a person, and carry scopes that limit what they can do, such as \`events:write\` or \`endpoints:read\`.

Create separate keys for separate systems, so you can revoke one without touching the others. Keys can expire; set an expiry for keys used by temporary scripts. Revoked keys stop working within 30 seconds. Manage keys with the [keys API](/api/keys-create.html) or in the dashboard, where only owners and admins can see them.`),
  g('receiving-webhooks', 'Receiving webhooks', `A Relay webhook is an HTTP POST with a JSON body and a few headers: \`Relay-Event-Type\`, \`Relay-Delivery-Id\`, \`Relay-Timestamp\` and \`Relay-Signature\`.

Your receiver should verify the signature, store the event, and answer with status 200 quickly, within 15 seconds at most. Do the real work afterwards, in a queue of your own: a receiver that processes synchronously times out under load, and timeouts count as failures. Answer 2xx for events you choose to ignore, too; otherwise Relay keeps retrying them.

Use the delivery id to detect repeats, see [idempotency](/guides/idempotency.html).`),
  g('verifying-signatures', 'Verifying webhook signatures', `Each delivery carries a \`Relay-Signature\` header: an HMAC-SHA256 of the timestamp header, a dot and the raw request body, computed with your endpoint's signing secret and encoded in hex, prefixed with \`v1=\`.

To verify, compute the same HMAC over the raw body bytes (not a re-serialised JSON object), compare in constant time, and reject timestamps older than five minutes to prevent replays. During a [secret rotation](/api/endpoints-rotate-secret.html) the header carries two signatures separated by a space; accept the delivery if either matches.

The official [SDKs](/guides/sdks.html) include a verify function that does all of this. The most common mistake is a web framework that parses the JSON before your code sees the raw body.`),
  g('retries', 'Retries and backoff', `When a delivery fails (a non-2xx status, a timeout, or a connection error) Relay retries it with exponential backoff and jitter. The first retry comes after about 30 seconds, and each wait roughly doubles, up to six hours between attempts, for a total retry window of 24 hours.

| Attempt | Typical wait before it |
| 2 | 30 seconds |
| 3 | 1 minute |
| 4 | 2 minutes |
| 6 | 8 minutes |
| 10 | about 2 hours |
| last | up to 6 hours |

A status of 410 Gone stops retries at once and disables the endpoint. After the last attempt the delivery is marked failed; you can [retry it now](/api/deliveries-retry.html) or [replay failures](/api/replays-create.html) once your endpoint is fixed. Endpoints that fail every delivery for 24 hours are paused automatically.`),
  g('idempotency', 'Idempotency and duplicate deliveries', `Relay delivers at least once. Rarely, for example during a failover, the same delivery reaches your endpoint twice. Make your receiver idempotent: record the \`Relay-Delivery-Id\` of each processed delivery and skip ids you have seen.

On the sending side, pass an \`Idempotency-Key\` header or field when you [send an event](/api/events-send.html). If your request times out and you send it again with the same key within 24 hours, Relay returns the original event instead of creating a second one.`),
  g('pagination', 'Pagination', `List calls return at most \`limit\` items, default 50, maximum 100, and a \`next_cursor\`. Pass it as \`cursor\` to get the next page. When \`next_cursor\` is null, you have reached the end.

Cursors are opaque and stable: items created while you page through a list do not cause duplicates or gaps. A cursor stays valid for 24 hours. The SDKs offer iterators that follow cursors for you.`),
  g('rate-limits', 'Rate limits', `Relay limits how fast a tenant can send events and call the management API, to protect the service for everyone.

| Plan | Events per second | API calls per second |
| Starter | 50 | 10 |
| Growth | 500 | 50 |
| Enterprise | By contract | 200 |

Over the limit, calls get status 429 with a \`Retry-After\` header in seconds. Short bursts up to twice the limit are absorbed. Per-endpoint delivery limits are separate: set them on the [endpoint](/api/endpoints-update.html) to protect a receiver that cannot take much load.`),
  g('errors', 'Errors', `Errors use standard HTTP statuses and a JSON body with a stable \`code\`, a human-readable \`message\` and, for validation errors, the \`field\` at fault.

| Status | Meaning |
| 400 | The request is malformed or fails validation |
| 401 | Missing or invalid API key |
| 403 | The key lacks the required scope |
| 404 | The object does not exist or belongs to another tenant |
| 409 | Conflict, such as an idempotency key reused with a different body |
| 429 | Rate limit exceeded; see [rate limits](/guides/rate-limits.html) |
| 5xx | Our fault; retry with backoff |

Include the \`request_id\` from the response when you contact support; it lets us find your request in seconds.`),
  g('filtering', 'Filtering events', `A subscription can carry a filter, so an endpoint receives only the events it cares about. Filters are expressions over the payload, such as \`payload.amount > 1000 && payload.currency == "EUR"\`.

Filters support comparison, \`&&\`, \`||\`, \`!\`, \`in\` for lists and \`startsWith\` for strings. Missing fields compare as null, so a filter never fails on an unexpected payload; it simply does not match. Test a filter against recent events in the dashboard before you save it.`),
  g('transformations', 'Transformations', `A transformation reshapes the payload before delivery, for receivers that expect a particular format, such as a chat tool's incoming webhook. Transformations are small JavaScript functions that take the event and return the body to send.

They run in a sandbox with a 50 millisecond time limit and no network access. The signature is computed over the transformed body, which is what your receiver sees. Transformations are available on the Growth and Enterprise plans.`),
  g('ip-allowlist', 'IP allowlist', `All deliveries leave Relay from a fixed set of addresses per region, so you can allow them in your firewall. The current lists are published in the dashboard under Settings and in a machine-readable JSON file.

We announce changes to these addresses at least three months ahead, by e-mail to tenant owners and in the [release notes](/releases/index.html). Do not rely on reverse DNS of our addresses; verify the signature instead.`),
  g('sdks', 'SDKs', `Official SDKs exist for Node.js, Python and Go, and are open source under the Apache 2.0 licence. Each wraps the whole API, follows pagination cursors, retries on 429 and 5xx with backoff, and includes a webhook signature verifier.

Install with your package manager: \`npm install @relay/sdk\`, \`pip install relay-sdk\` or \`go get relay.example/sdk\`. The SDKs follow the API major version: SDK 3.x talks to API v3. Community libraries exist for Ruby, PHP and Java; they are not supported by us but several are excellent.`),
  g('self-hosted-agent', 'Self-hosted agent', `The Relay agent runs inside your network and delivers to endpoints that are not reachable from the internet. It connects outbound to Relay, receives deliveries for the endpoints assigned to it and sends them locally.

Install it as a container or a single binary, give it an agent token and point it at its configuration file. The options are listed in the [configuration reference](/config/index.html) and the command-line tool in the [CLI reference](/cli/index.html). The agent ships on a weekly release train; see the [release notes](/releases/index.html) before upgrading.`),
  g('upgrading-agent', 'Upgrading the agent', `Agent releases are backwards compatible within a major version, so upgrading from 3.4 to 3.9 needs no configuration change. Read the release notes of every version you skip, looking for deprecations.

Upgrade by replacing the binary or the container image and restarting. The agent drains in-flight deliveries on SIGTERM for up to 30 seconds, so a rolling restart loses nothing. Running two agents with the same token is supported and is the recommended way to upgrade without any pause.`),
  g('observability', 'Monitoring your webhooks', `Relay gives you three ways to watch webhook health. The dashboard shows success rates and latency per endpoint. The [deliveries API](/api/deliveries-list.html) lets you build your own checks. And you can subscribe an endpoint to Relay's own system events, such as \`relay.endpoint.paused\`, to be told when something goes wrong.

The self-hosted agent exposes Prometheus metrics on its metrics port: deliveries sent, failed and retried, latency histograms and queue depth.`),
  g('migrating-v2', 'Migrating from API v2 to v3', `API v2 will be switched off on 30 June 2026. Version 3 changes three things that matter for most integrations.

- Pagination moved from page numbers to cursors, see [pagination](/guides/pagination.html).
- Endpoint secrets are rotated with an overlap instead of replaced instantly.
- Errors carry a stable \`code\` field; match on it instead of the message.

Both versions run side by side, so you can migrate one call at a time. The SDKs 3.x speak only v3.`),
];

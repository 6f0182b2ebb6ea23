/**
 * @module crawler/demo/authoring/docs-api
 * The Relay API reference, one page per operation, rendered from a table of
 * operations so that every page has the same shape: description, parameters,
 * an example request and the notes that apply to that kind of call.
 */
import type { DemoPage } from './shell.js';

type Param = [name: string, type: string, doc: string];
interface Op { slug: string; title: string; method: string; path: string; doc: string; params: Param[] }

const OPS: Op[] = [
  { slug: 'events-send', title: 'Send an event', method: 'POST', path: '/v3/events', doc: 'Accepts one event for delivery to every subscription whose filter matches its type and payload. The call returns as soon as the event is durably stored; delivery happens asynchronously.', params: [['type', 'string', 'Event type, such as `invoice.paid`. Must be registered unless the tenant allows free-form types.'], ['payload', 'object', 'The event body, up to 256 KB of JSON.'], ['partition_key', 'string', 'Optional. Events with the same key are delivered in order to each endpoint.'], ['idempotency_key', 'string', 'Optional. A repeated key within 24 hours returns the original event instead of creating a new one.']] },
  { slug: 'events-batch', title: 'Send a batch of events', method: 'POST', path: '/v3/events/batch', doc: 'Accepts up to 500 events in one request. Each event is validated separately; the response lists the id or error for each position, so a single bad event does not reject the batch.', params: [['events', 'array', 'Up to 500 event objects with the same fields as a single send.']] },
  { slug: 'events-get', title: 'Get an event', method: 'GET', path: '/v3/events/{event_id}', doc: 'Returns one event with its payload, type, the time it was accepted and a summary of its deliveries.', params: [['event_id', 'string', 'The id returned when the event was sent.']] },
  { slug: 'events-list', title: 'List events', method: 'GET', path: '/v3/events', doc: 'Lists events accepted for the tenant, newest first, within the retention period of the plan.', params: [['type', 'string', 'Optional. Only events of this type.'], ['since', 'timestamp', 'Optional. Only events accepted at or after this time.'], ['limit', 'integer', 'Page size, 1 to 100, default 50.'], ['cursor', 'string', 'Cursor from the previous page.']] },
  { slug: 'endpoints-create', title: 'Create an endpoint', method: 'POST', path: '/v3/endpoints', doc: 'Registers a URL that Relay delivers webhooks to. Relay generates a signing secret for the endpoint and returns it once, in this response only.', params: [['url', 'string', 'HTTPS URL of the receiver. Private and loopback addresses are refused.'], ['description', 'string', 'Optional. Shown in the dashboard.'], ['rate_limit', 'integer', 'Optional. Maximum deliveries per second to this endpoint.'], ['headers', 'object', 'Optional. Static headers sent with every delivery.']] },
  { slug: 'endpoints-get', title: 'Get an endpoint', method: 'GET', path: '/v3/endpoints/{endpoint_id}', doc: 'Returns an endpoint with its URL, status (active, paused or disabled), rate limit and delivery statistics for the last 24 hours.', params: [['endpoint_id', 'string', 'The endpoint id.']] },
  { slug: 'endpoints-list', title: 'List endpoints', method: 'GET', path: '/v3/endpoints', doc: 'Lists the endpoints of the tenant, ordered by creation time.', params: [['status', 'string', 'Optional. `active`, `paused` or `disabled`.'], ['limit', 'integer', 'Page size, 1 to 100, default 50.'], ['cursor', 'string', 'Cursor from the previous page.']] },
  { slug: 'endpoints-update', title: 'Update an endpoint', method: 'PATCH', path: '/v3/endpoints/{endpoint_id}', doc: 'Changes the URL, description, rate limit or headers of an endpoint. Deliveries already in flight use the old settings.', params: [['url', 'string', 'Optional. New receiver URL.'], ['rate_limit', 'integer', 'Optional. New limit, or null to remove it.'], ['headers', 'object', 'Optional. Replaces all static headers.']] },
  { slug: 'endpoints-pause', title: 'Pause an endpoint', method: 'POST', path: '/v3/endpoints/{endpoint_id}/pause', doc: 'Stops deliveries to an endpoint without losing them: new deliveries are held until the endpoint is resumed, for up to the retention period. Relay also pauses endpoints on its own after a full day of failures.', params: [['endpoint_id', 'string', 'The endpoint id.']] },
  { slug: 'endpoints-resume', title: 'Resume an endpoint', method: 'POST', path: '/v3/endpoints/{endpoint_id}/resume', doc: 'Resumes a paused endpoint. Held deliveries are sent in order, at the endpoint rate limit.', params: [['endpoint_id', 'string', 'The endpoint id.']] },
  { slug: 'endpoints-delete', title: 'Delete an endpoint', method: 'DELETE', path: '/v3/endpoints/{endpoint_id}', doc: 'Deletes an endpoint and its subscriptions. Pending deliveries to it are discarded.', params: [['endpoint_id', 'string', 'The endpoint id.']] },
  { slug: 'endpoints-rotate-secret', title: 'Rotate an endpoint signing secret', method: 'POST', path: '/v3/endpoints/{endpoint_id}/secret/rotate', doc: 'Creates a new signing secret. For the overlap period, deliveries carry signatures from both the old and the new secret, so receivers can switch without failing verification.', params: [['overlap_hours', 'integer', 'How long the old secret stays valid, 1 to 72, default 24.']] },
  { slug: 'subscriptions-create', title: 'Create a subscription', method: 'POST', path: '/v3/subscriptions', doc: 'Connects event types to an endpoint, optionally with a filter on the payload and a transformation applied before delivery.', params: [['endpoint_id', 'string', 'The receiving endpoint.'], ['event_types', 'array', 'Types to deliver; `*` matches all.'], ['filter', 'string', 'Optional. A filter expression, see [filtering events](/guides/filtering.html).'], ['transformation_id', 'string', 'Optional. A transformation to apply.']] },
  { slug: 'subscriptions-list', title: 'List subscriptions', method: 'GET', path: '/v3/subscriptions', doc: 'Lists subscriptions, optionally only those of one endpoint.', params: [['endpoint_id', 'string', 'Optional. Only subscriptions of this endpoint.'], ['limit', 'integer', 'Page size, 1 to 100, default 50.'], ['cursor', 'string', 'Cursor from the previous page.']] },
  { slug: 'subscriptions-delete', title: 'Delete a subscription', method: 'DELETE', path: '/v3/subscriptions/{subscription_id}', doc: 'Stops matching new events for the subscription. Deliveries already created are still sent.', params: [['subscription_id', 'string', 'The subscription id.']] },
  { slug: 'deliveries-list', title: 'List deliveries', method: 'GET', path: '/v3/deliveries', doc: 'Lists deliveries with their status: pending, succeeded, retrying or failed. Useful to build your own monitoring of webhook health.', params: [['endpoint_id', 'string', 'Optional. Only deliveries to this endpoint.'], ['status', 'string', 'Optional. One of the four statuses.'], ['limit', 'integer', 'Page size, 1 to 100, default 50.'], ['cursor', 'string', 'Cursor from the previous page.']] },
  { slug: 'deliveries-get', title: 'Get a delivery', method: 'GET', path: '/v3/deliveries/{delivery_id}', doc: 'Returns one delivery with every attempt: the time, the response status, the first kilobyte of the response body and the latency.', params: [['delivery_id', 'string', 'The delivery id, also sent to your endpoint in the `Relay-Delivery-Id` header.']] },
  { slug: 'deliveries-retry', title: 'Retry a delivery now', method: 'POST', path: '/v3/deliveries/{delivery_id}/retry', doc: 'Schedules an immediate attempt for a delivery that is retrying or failed, without waiting for the backoff schedule.', params: [['delivery_id', 'string', 'The delivery id.']] },
  { slug: 'replays-create', title: 'Replay failed deliveries', method: 'POST', path: '/v3/replays', doc: 'Creates a replay job that sends again every failed delivery to an endpoint within a time range. Use it after fixing a broken receiver.', params: [['endpoint_id', 'string', 'The endpoint whose failed deliveries to replay.'], ['since', 'timestamp', 'Start of the range.'], ['until', 'timestamp', 'Optional. End of the range, default now.']] },
  { slug: 'replays-get', title: 'Get a replay job', method: 'GET', path: '/v3/replays/{replay_id}', doc: 'Returns the progress of a replay job: deliveries found, sent, succeeded and failed.', params: [['replay_id', 'string', 'The replay id.']] },
  { slug: 'event-types-create', title: 'Register an event type', method: 'POST', path: '/v3/event-types', doc: 'Registers an event type with an optional JSON Schema. Events of a type with a schema are validated on ingestion and rejected with a clear error if they do not match.', params: [['name', 'string', 'Dotted name, such as `order.shipped`.'], ['schema', 'object', 'Optional. A JSON Schema for the payload.'], ['description', 'string', 'Optional. Shown in the dashboard and the event catalogue.']] },
  { slug: 'event-types-list', title: 'List event types', method: 'GET', path: '/v3/event-types', doc: 'Lists the event types registered for the tenant, with their schemas.', params: [['limit', 'integer', 'Page size, 1 to 100, default 50.'], ['cursor', 'string', 'Cursor from the previous page.']] },
  { slug: 'keys-create', title: 'Create an API key', method: 'POST', path: '/v3/keys', doc: 'Creates an API key with a set of scopes. The secret is returned once, in this response; store it in your own secret manager.', params: [['name', 'string', 'A label for the key.'], ['scopes', 'array', 'Such as `events:write`, `endpoints:read`.'], ['expires_at', 'timestamp', 'Optional. When the key stops working.']] },
  { slug: 'keys-revoke', title: 'Revoke an API key', method: 'DELETE', path: '/v3/keys/{key_id}', doc: 'Revokes an API key. Because verification results are cached, requests with the key may succeed for up to 30 seconds afterwards.', params: [['key_id', 'string', 'The key id (not the secret).']] },
  { slug: 'members-invite', title: 'Invite a team member', method: 'POST', path: '/v3/members', doc: 'Invites a person by e-mail to the tenant with a role: owner, admin, developer or viewer.', params: [['email', 'string', 'The address to invite.'], ['role', 'string', 'One of the four roles.']] },
  { slug: 'members-list', title: 'List team members', method: 'GET', path: '/v3/members', doc: 'Lists people with access to the tenant and their roles.', params: [['limit', 'integer', 'Page size, 1 to 100, default 50.'], ['cursor', 'string', 'Cursor from the previous page.']] },
  { slug: 'audit-logs-list', title: 'List audit log entries', method: 'GET', path: '/v3/audit-logs', doc: 'Lists every change made to the tenant by a person or an API key: the actor, the action, the object and the source address. Entries are kept for seven years.', params: [['actor', 'string', 'Optional. Only actions by this member or key.'], ['since', 'timestamp', 'Optional. Only entries at or after this time.'], ['limit', 'integer', 'Page size, 1 to 100, default 50.'], ['cursor', 'string', 'Cursor from the previous page.']] },
  { slug: 'usage-get', title: 'Get usage', method: 'GET', path: '/v3/usage', doc: 'Returns accepted events and successful deliveries per day for a month, the same numbers your invoice is based on.', params: [['month', 'string', 'The month as `YYYY-MM`, default the current one.']] },
];

const NOTES: Record<string, string> = {
  GET: 'Read calls need a key with the matching `:read` scope. Lists are paginated with cursors: pass the `next_cursor` of one response as `cursor` to get the next page, and stop when it is null. See [pagination](/guides/pagination.html).',
  POST: 'Write calls need a key with the matching `:write` scope. Send an `Idempotency-Key` header to make retries of this call safe: a repeated key within 24 hours returns the first response. See [idempotency](/guides/idempotency.html).',
  PATCH: 'Only the fields you send are changed. Every change is recorded in the [audit log](/api/audit-logs-list.html) with the key or member that made it.',
  DELETE: 'Deletion cannot be undone. It is recorded in the [audit log](/api/audit-logs-list.html), and the deleted object stays visible there.',
};

export const apiPages: DemoPage[] = OPS.map((o) => {
  const sample = o.method === 'GET' || o.method === 'DELETE' ? '' : ` \\\n  -H 'Content-Type: application/json' -d '{ ... }'`;
  return {
    path: `/api/${o.slug}.html`, section: 'api', title: `${o.title}: ${o.method} ${o.path}`, reviewed: '2025-02-11',
    summary: o.doc.split('. ')[0] + '.',
    body: `${o.doc}

## Parameters

| Name | Type | Description |
${o.params.map(([n, t, d]) => `| \`${n}\` | ${t} | ${d} |`).join('\n')}

## Example

\`\`\`
curl -X ${o.method} https://api.relay.example${o.path} \\
  -H 'Authorization: Bearer $RELAY_API_KEY'${sample}
\`\`\`

## Notes

${NOTES[o.method]} Errors follow the common format described in [errors](/guides/errors.html), and every call counts against your [rate limits](/guides/rate-limits.html).`,
  };
});

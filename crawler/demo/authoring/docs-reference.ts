/**
 * @module crawler/demo/authoring/docs-reference
 * Agent configuration and CLI reference, release notes per version and the
 * glossary, rendered from tables. The release notes also become a plain-text
 * CHANGELOG, served as text/plain.
 */
import type { DemoPage } from './shell.js';

type Key = [name: string, def: string, doc: string];
const CONFIG: [slug: string, title: string, intro: string, keys: Key[]][] = [
  ['server', 'Server settings', 'Where the agent listens for health checks and metrics, and how it shuts down.', [['server.listen', '127.0.0.1:8701', 'Address for the health and metrics endpoints. Bind to 0.0.0.0 only behind a firewall.'], ['server.shutdown_grace', '30s', 'How long the agent drains in-flight deliveries after SIGTERM before it exits.'], ['server.health_path', '/healthz', 'Path that answers 200 while the agent is connected and delivering.']]],
  ['connection', 'Connection to Relay', 'How the agent connects outbound to the Relay cloud to receive deliveries.', [['relay.region', 'eu', 'Region of your tenant: eu, us or ap-seoul.'], ['relay.token_file', '/etc/relay/agent-token', 'File holding the agent token. The agent re-reads it on SIGHUP, so tokens rotate without restarts.'], ['relay.proxy', '(none)', 'HTTP proxy for the outbound connection, such as http://proxy.internal:3128.']]],
  ['delivery', 'Delivery settings', 'How the agent sends deliveries to your local endpoints.', [['delivery.concurrency', '32', 'Maximum deliveries in flight across all endpoints.'], ['delivery.timeout', '15s', 'Time an endpoint has to answer. Longer values make failures slower to detect.'], ['delivery.per_endpoint_limit', '8', 'Maximum concurrent deliveries to one endpoint, to protect small receivers.'], ['delivery.follow_redirects', 'false', 'Whether to follow 3xx responses. Off by default because a redirect usually means a misconfigured URL.']]],
  ['retry', 'Retry settings', 'Local retries before a failure is reported back to Relay, which then applies its own schedule.', [['retry.local_attempts', '2', 'Quick local retries for connection errors, 0 to 5.'], ['retry.local_delay', '500ms', 'Wait between local retries.']]],
  ['tls', 'TLS settings', 'Certificates for endpoints that use internal certificate authorities or mutual TLS.', [['tls.ca_file', '(system roots)', 'Extra CA bundle to trust for endpoint certificates.'], ['tls.client_cert', '(none)', 'Client certificate for endpoints that require mutual TLS.'], ['tls.client_key', '(none)', 'Key for the client certificate. Keep its permissions at 0600.'], ['tls.min_version', '1.2', 'Minimum TLS version for endpoint connections.']]],
  ['logging', 'Logging settings', 'What the agent logs and where.', [['log.level', 'info', 'One of debug, info, warn, error. Debug logs every delivery and is noisy.'], ['log.format', 'json', 'json for log collectors, text for humans.'], ['log.payloads', 'false', 'Whether to log delivery payloads. Leave it off unless you are debugging with test data.']]],
  ['storage', 'Local buffer', 'The disk buffer that keeps deliveries while local endpoints are down.', [['buffer.dir', '/var/lib/relay-agent', 'Directory for the buffer.'], ['buffer.max_size', '2GB', 'Beyond this size the agent refuses new deliveries and Relay keeps them in the cloud instead.']]],
];

export const configPages: DemoPage[] = CONFIG.map(([slug, title, intro, keys]) => ({
  path: `/config/${slug}.html`, section: 'config', title: `Agent configuration: ${title}`, reviewed: '2025-01-28',
  body: `${intro} Settings live in \`relay-agent.yaml\`; each can also be set with an environment variable of the same name in upper case with dots replaced by underscores, such as \`${keys[0]![0].toUpperCase().replace(/\./g, '_')}\`.

| Setting | Default | Description |
${keys.map(([n, d, doc]) => `| \`${n}\` | \`${d}\` | ${doc} |`).join('\n')}

Changes to these settings take effect after a restart, except where noted. The agent checks the whole file at start-up and refuses to run with an unknown or malformed setting, naming the line.`,
}));

const CLI: [cmd: string, doc: string, example: string][] = [
  ['login', 'Stores an API key for later commands, in the system keychain when one exists.', 'relayctl login --key-stdin < key.txt'],
  ['events send', 'Sends one event; handy for testing subscriptions and filters.', 'relayctl events send --type order.shipped --data \'{"id": 42}\''],
  ['events tail', 'Streams events accepted for the tenant as they arrive, like tail -f.', 'relayctl events tail --type "order.*"'],
  ['endpoints list', 'Lists endpoints with their status and success rate over the last day.', 'relayctl endpoints list --status paused'],
  ['endpoints pause', 'Pauses an endpoint; deliveries are held until it is resumed.', 'relayctl endpoints pause ep_3f9a'],
  ['deliveries inspect', 'Shows every attempt of a delivery with status, latency and response body.', 'relayctl deliveries inspect dl_81c2'],
  ['replay', 'Replays failed deliveries to an endpoint for a time range and follows the progress.', 'relayctl replay ep_3f9a --since 2025-02-01T00:00:00Z'],
  ['listen', 'Forwards deliveries for a test endpoint to a port on your laptop, for local development.', 'relayctl listen --forward-to localhost:3000/webhooks'],
  ['agent check', 'Validates an agent configuration file and tests the connection to Relay.', 'relayctl agent check /etc/relay/relay-agent.yaml'],
];

export const cliPages: DemoPage[] = CLI.map(([cmd, doc, example]) => ({
  path: `/cli/${cmd.replace(' ', '-')}.html`, section: 'cli', title: `relayctl ${cmd}`, reviewed: '2025-01-28',
  body: `${doc}

\`\`\`
${example}
\`\`\`

Like every relayctl command it reads the key stored by \`relayctl login\`, or the \`RELAY_API_KEY\` environment variable, which wins when both exist. Add \`--output json\` for machine-readable output and \`--help\` for every option. Exit status is 0 on success, 1 on an API error and 2 on wrong usage.`,
}));

const RELEASES: [version: string, date: string, items: string[]][] = [
  ['3.0.0', '2024-03-05', ['API v3 support: cursor pagination, overlapping secret rotation and stable error codes.', 'The agent configuration moved from TOML to YAML; `relayctl agent migrate-config` converts old files.', 'Dropped support for TLS 1.0 and 1.1 to endpoints.']],
  ['3.0.1', '2024-03-12', ['Fixed a crash when the token file ended without a newline.', 'The agent now logs which configuration file it loaded.']],
  ['3.1.0', '2024-04-02', ['New `delivery.per_endpoint_limit` setting to protect small receivers.', 'Prometheus metrics now include a latency histogram per endpoint.']],
  ['3.2.0', '2024-05-07', ['Mutual TLS to endpoints with `tls.client_cert` and `tls.client_key`.', 'Faster reconnects after network interruptions, with backoff capped at 30 seconds.']],
  ['3.2.1', '2024-05-14', ['Security fix: the agent could log the agent token at debug level during reconnects. Upgrade if you run with debug logging.']],
  ['3.3.0', '2024-06-11', ['Disk buffer for deliveries while local endpoints are down (`buffer.dir`, `buffer.max_size`).', 'Health endpoint reports buffer usage.']],
  ['3.4.0', '2024-07-09', ['The agent re-reads its token file on SIGHUP.', 'New `relayctl agent check` command.', 'Deprecated: the `--insecure` flag; use `tls.ca_file` instead.']],
  ['3.4.2', '2024-07-23', ['Fixed deliveries stalling when an endpoint answered with a body larger than 10 MB.']],
  ['3.5.0', '2024-08-20', ['Support for the ap-seoul region.', 'Korean and Japanese error messages in relayctl, following the system locale.']],
  ['3.6.0', '2024-09-17', ['HTTP proxy support for the outbound connection (`relay.proxy`).', 'Log lines now include the delivery id on every line about a delivery.']],
  ['3.6.1', '2024-10-01', ['Fixed high CPU use while idle on some ARM hosts.']],
  ['3.7.0', '2024-10-29', ['Graceful drain on SIGTERM now honours `server.shutdown_grace`.', 'Two agents can share a token for zero-downtime upgrades.']],
  ['3.8.0', '2024-11-26', ['`relayctl listen` forwards deliveries to a local port for development.', 'Metrics port can be disabled.']],
  ['3.8.3', '2024-12-17', ['Fixed a memory leak when endpoints returned many redirects with `delivery.follow_redirects` on.', 'Last release before the end-of-year freeze.']],
  ['3.9.0', '2025-01-14', ['Local retries for connection errors (`retry.local_attempts`).', 'Removed the deprecated `--insecure` flag.']],
  ['3.10.0', '2025-02-04', ['Structured text log format for humans (`log.format: text`).', 'Startup now fails clearly, naming the line, on an unknown configuration setting.']],
];

export const releasePages: DemoPage[] = RELEASES.map(([v, date, items], i) => ({
  path: `/releases/${v}.html`, section: 'releases', title: `Relay agent ${v} release notes`, reviewed: date,
  summary: `Released ${date}.`,
  body: `Relay agent ${v} was released on ${date}${i > 0 ? `, following [${RELEASES[i - 1]![0]}](/releases/${RELEASES[i - 1]![0]}.html)` : ''}.

## Changes

${items.map((t) => `- ${t}`).join('\n')}

${v.endsWith('.0') ? 'This is a minor release: new features, no breaking changes within major version 3.' : 'This is a patch release with fixes only; upgrading is safe and recommended.'} See [upgrading the agent](/guides/upgrading-agent.html) for how to upgrade without pausing deliveries, or read the whole history in the [plain-text changelog](/downloads/CHANGELOG.txt).`,
}));

export const CHANGELOG = `Relay agent changelog\n=====================\n\n` +
  [...RELEASES].reverse().map(([v, date, items]) => `${v} (${date})\n${items.map((t) => `  * ${t.replace(/`/g, '')}`).join('\n')}\n`).join('\n');

const TERMS: [term: string, text: string][] = [
  ['Tenant', 'A customer organisation in Relay. Endpoints, keys, members and events all belong to exactly one tenant, and one tenant lives in exactly one region.'],
  ['Event', 'A fact your system reports, such as an invoice being paid, with a type and a JSON payload. You send an event once; Relay turns it into deliveries.'],
  ['Event type', 'The dotted name of a kind of event, such as `invoice.paid`, optionally with a schema that payloads are validated against.'],
  ['Endpoint', 'A URL that receives webhooks, with its own signing secret, rate limit and status.'],
  ['Subscription', 'The link between event types and an endpoint, optionally with a filter and a transformation.'],
  ['Delivery', 'One event on its way to one endpoint. A delivery has one or more attempts and ends as succeeded or failed.'],
  ['Attempt', 'One HTTP request for a delivery, with its response status and latency.'],
  ['Replay', 'A job that sends failed deliveries again, usually after the receiver has been fixed.'],
  ['Signing secret', 'The per-endpoint key used to compute the HMAC signature of each delivery, so receivers can verify it came from Relay.'],
  ['Partition key', 'An optional field of an event; events with the same key reach each endpoint in the order they were sent.'],
  ['Backoff', 'The growing wait between retries of a failing delivery, so a struggling endpoint is not overwhelmed.'],
  ['Dead letter', 'A delivery that failed every attempt and is kept so it can be inspected and replayed.'],
  ['Agent', 'The self-hosted program that delivers to endpoints inside a private network.'],
];

export const glossaryPages: DemoPage[] = TERMS.map(([term, text]) => {
  const related = TERMS.filter(([t]) => t !== term && text.toLowerCase().includes(t.toLowerCase())).map(([t]) => `[${t}](/glossary/${t.toLowerCase().replace(/ /g, '-')}.html)`);
  return {
    path: `/glossary/${term.toLowerCase().replace(/ /g, '-')}.html`, section: 'glossary', title: `Glossary: ${term}`,
    body: `${text}\n\n${related.length ? `Related terms: ${related.join(', ')}.` : 'Read [how Relay works](/guides/how-relay-works.html) to see where this fits.'}`,
  };
});

/**
 * @module crawler/demo/authoring/docs
 * The Relay product documentation: guides, API reference, agent configuration,
 * CLI, release notes, glossary and FAQ. The old /api.html address redirects to
 * the API reference (see hosts.ts).
 */
import type { HostContent } from './shell.js';
import { apiPages } from './docs-api.js';
import { guidePages } from './docs-guides.js';
import { CHANGELOG, cliPages, configPages, glossaryPages, releasePages } from './docs-reference.js';

const FAQ = `## Does Relay guarantee exactly-once delivery?

No. Relay delivers at least once, which in practice means exactly once nearly always and twice in rare failovers. Make receivers [idempotent](/guides/idempotency.html) using the delivery id.

## How long do you keep my events?

Thirty days on Starter and Growth, ninety on Enterprise. Audit log entries are kept for seven years.

## My endpoint was down for a day. Did I lose events?

No. Deliveries retried for 24 hours and then became failed deliveries, which you can [replay](/api/replays-create.html). If the endpoint was paused, deliveries were held and are sent when you resume it.

## Why did my endpoint get paused?

Relay pauses an endpoint that has failed every delivery for 24 hours, or that answered 410 Gone. Fix the receiver, then [resume it](/api/endpoints-resume.html).

## Can I receive webhooks on a private network?

Yes, with the [self-hosted agent](/guides/self-hosted-agent.html), which connects outbound and needs no inbound firewall rule.

## Which addresses do webhooks come from?

From a fixed list per region, see the [IP allowlist](/guides/ip-allowlist.html). Verify signatures as well; addresses alone are not proof.

## Is there a sandbox?

Every tenant can create a test environment with its own keys and endpoints, free of charge, limited to 10,000 events a day.`;

export default {
  host: 'docs',
  owner: 'Developer Experience',
  home: `Relay delivers your events as webhooks, reliably: you send each event once, and Relay signs it, delivers it to every subscribed endpoint, retries when endpoints fail and keeps a record of every attempt.

Start with the [quickstart](/guides/quickstart.html), then read [how Relay works](/guides/how-relay-works.html). The [API reference](/api/index.html) lists every call; the [release notes](/releases/index.html) cover the self-hosted agent. Kestrel staff: internal design notes are on the [engineering wiki](wiki:/services/index.html).`,
  sections: [
    { key: 'guides', title: 'Guides', intro: 'Concepts and step-by-step guides, from the first webhook to running the self-hosted agent.' },
    { key: 'api', title: 'API reference', intro: 'Every operation of the Relay API v3, with parameters and an example. All calls go to https://api.relay.example and need an API key.' },
    { key: 'config', title: 'Agent configuration', intro: 'Every setting of relay-agent.yaml, grouped by topic, with its default.' },
    { key: 'cli', title: 'CLI reference', intro: 'The relayctl command-line tool for testing, inspecting and replaying deliveries.' },
    { key: 'releases', title: 'Release notes', intro: 'What changed in each release of the self-hosted Relay agent, oldest first.' },
    { key: 'glossary', title: 'Glossary', intro: 'The words the Relay documentation uses, each with a short definition.' },
    { key: 'faq', title: 'FAQ', intro: 'Answers to the questions customers ask Support most often.' },
  ],
  pages: [
    ...guidePages, ...apiPages, ...configPages, ...cliPages, ...releasePages, ...glossaryPages,
    { path: '/faq/general.html', section: 'faq', title: 'Frequently asked questions', reviewed: '2025-02-11', summary: 'Delivery guarantees, retention, paused endpoints, private networks and more.', body: FAQ },
  ],
  files: { '/downloads/CHANGELOG.txt': CHANGELOG },
} satisfies HostContent;

/**
 * @module crawler/demo/authoring/wiki-howto
 * The wiki's how-to guides: the engineering processes people look up most.
 */
import type { DemoPage } from './shell.js';

const h = (slug: string, title: string, reviewed: string, body: string): DemoPage => ({
  path: `/howto/${slug}.html`, section: 'howto', title, reviewed, body,
});

export const howtoPages: DemoPage[] = [
  h('deploy-process', 'Deploy process', '2025-02-03', `Every Relay service deploys the same way, through the shared pipeline. A merged pull request builds an image, runs the test suite and deploys to staging automatically. Production deploys are started by a person, with a button, during working hours.

## Steps to production

1. Check that staging has been green for at least 15 minutes with your change in it.
2. Announce the deploy in #deploys with the service name and a link to the change.
3. Press deploy. The pipeline rolls out to one canary instance per region first.
4. Watch the canary dashboard for ten minutes: error rate, latency and, for delivery services, the delivery success rate.
5. If the canary looks healthy, the pipeline continues region by region, Seoul last.

## Rolling back

Rolling back is always allowed and never needs approval. Press rollback in the pipeline, or run \`relay-admin deploy rollback <service>\`; it redeploys the previous image in about three minutes. Roll back first, investigate second.

## When not to deploy

No deploys on Fridays after 15:00 local time, during an open incident, or during the end-of-year freeze from 20 December to 3 January, except for fixes approved by the incident commander. Changes to the delivery path ship behind [feature flags](/howto/feature-flags.html).`),
  h('on-call', 'On-call guide', '2025-01-30', `Each team that owns production services runs a weekly on-call rotation with a primary and a secondary. Shifts start on Monday at 10:00 in the primary's local time, with a handoff meeting of fifteen minutes.

## Before your first shift

- Finish on-call training and a shadow week with an experienced primary.
- Install the paging app and test that a page wakes you up.
- Check you have production access; request it early through [access requests](/howto/access-requests.html).

## During a shift

Acknowledge pages within five minutes. Follow the runbook linked from the alert; if there is none, that is a finding for the handoff. When customers are affected, declare an incident following the [incident process](/howto/incident-process.html), even if you think you can fix it quickly.

## Handoff

At the end of the shift, write a short handoff note: pages received, what was done, what is still open and which runbooks were wrong. The next primary reads it before the handoff meeting.

Being on call is paid, see [on-call pay](handbook:/money/on-call-pay.html), and if you are ill or on leave, swap your shift; nobody carries the pager while sick.`),
  h('incident-process', 'Incident process', '2024-12-11', `An incident is any unplanned event that affects customers or puts their data at risk. Declaring one is cheap; declare early.

## Roles

- **Incident commander:** coordinates, decides, and keeps everyone informed. Usually the on-call primary at first; hand it over if you are the one fixing.
- **Communications:** updates the status page every 30 minutes and keeps Support informed.
- **Responders:** investigate and fix.

## Steps

1. Run \`/incident declare\` in chat. It opens a channel and a timeline document.
2. Set a severity from 1 to 3; change it freely as you learn more.
3. Mitigate first: roll back, turn off a flag, fail over. Root causes can wait.
4. When customers are no longer affected, declare the incident resolved.
5. Within five working days, the owning team writes a blameless incident review on this wiki, using the [template](/howto/incident-review-template.html).

Past reviews are listed under [incidents](/incidents/index.html).`),
  h('incident-review-template', 'Incident review template', '2024-06-18', `Copy this structure for every incident review. Keep the language blameless: describe what the system allowed, not who slipped.

## Sections

- **Summary:** severity, duration, and two sentences a customer could understand.
- **What happened:** the impact, with numbers: how many customers, events, minutes.
- **Why it happened:** the chain of causes. Ask "why" until you reach something we can change.
- **What went well:** the alert that fired, the runbook that helped. We want to keep those.
- **Follow-up actions:** each with an owner and a due date, tracked on the team board.

Read one or two [past reviews](/incidents/index.html) before writing your first. The review meeting is for learning; the incident commander chairs it and anyone may attend.`),
  h('code-review', 'Code review guide', '2024-10-02', `Every change to Relay is reviewed by at least one other engineer before it merges. Review is for catching defects, sharing knowledge and keeping the code coherent; it is not a gate for personal taste.

## As an author

Keep changes small, under about 400 lines, and explain why in the description, not only what. Link the issue, the incident review or the decision record that motivated the change. Mark your own uncertain spots with comments, so reviewers know where to look.

## As a reviewer

Respond within one working day. Separate blocking comments from suggestions, and say which is which. Ask questions rather than issuing orders: "what happens if the endpoint returns a redirect?" teaches more than "handle redirects". Approve when the change is better than what is there, even if it is not how you would have written it.`),
  h('release-train', 'Release train for the Relay agent', '2025-01-15', `The self-hosted Relay agent ships on a weekly release train. Services in our cloud deploy continuously, but customers install the agent themselves, so its releases need a slower, predictable rhythm.

Every Tuesday at 12:00 UTC, the release manager cuts a release candidate from the main branch. It runs in our own staging fleet and in three volunteer customer environments until Thursday. If nothing is found, it becomes the release on Thursday afternoon, with [release notes](docs:/releases/index.html) written from the change descriptions.

A fix that misses the train waits for the next one, unless it is a security fix, which gets a patch release the same day. Release managers rotate monthly among the Developer Experience team.`),
  h('feature-flags', 'Feature flags', '2024-11-05', `We use feature flags to separate deploying code from releasing behaviour. Flags can be turned on for one tenant, a percentage of tenants or everyone, and turned off in seconds without a deploy.

## Rules

- Every change to the delivery path ships behind a flag, as decided in [ADR 9](/decisions/adr-009-feature-flags.html).
- Name flags after the service and behaviour, such as \`fanout.spread-keys\`.
- Give every flag an owner and a removal date. Flags older than three months are listed in the weekly engineering update until removed.

During an incident, turning off a recently enabled flag is often the fastest mitigation; the flag console shows what changed in the last 24 hours.`),
  h('local-development', 'Local development environment', '2025-02-06', `You can run the whole Relay pipeline on a laptop: gateway, event log, fan-out, workers, API and dashboard. It takes about an hour to set up the first time.

## Setup

1. Install the container runtime and the language toolchains listed in the repository's README.
2. Clone the monorepo and run \`make dev-up\`. It starts Kafka, Postgres and Redis in containers and the services as local processes.
3. Run \`make seed\` to create a test tenant with an API key and a sample endpoint.
4. Send an event with \`relayctl events send --type demo.ping\` and watch it arrive at the local echo endpoint.

## Tips

Use \`make dev-up SERVICES=fanout,workers\` to run only what you are changing, against shared staging for the rest. If Kafka refuses to start, delete the \`.dev/kafka\` directory; it does not survive laptop sleep gracefully.`),
  h('access-requests', 'Access requests', '2024-09-09', `Access follows the principle of least privilege: you get what your role needs, and production access expires unless renewed.

| Access | How to request | Approved by |
| Read-only dashboards and logs | Automatic after the security briefing | — |
| Staging write access | Access portal | Your manager |
| Production access | Access portal, after on-call training | Your manager and the service's team lead |
| Customer data (break-glass) | Break-glass tool, with a ticket number | Security on-call, logged and reviewed |

Production access lasts 90 days and can be renewed with one click while you are on a rotation. Break-glass access lasts four hours and every action is recorded in the audit log.`),
  h('secrets-management', 'Secrets management', '2024-08-20', `Secrets are passwords, API keys, tokens, signing secrets and private keys. They never go into the repository, chat, tickets or logs.

Services read secrets at start-up from the key vault through their service identity; the deployment template wires this up. For local development, \`make seed\` creates throwaway secrets. If you need a secret for a script, ask Security to create a scoped service identity rather than using your own credentials.

If a secret leaks, for example pushed to a branch, tell #security at once. Rotating it immediately is more important than removing it from history, which we will also do. Secret scanning runs on every push and blocks the most common formats.`),
  h('database-migrations', 'Database migrations', '2024-07-01', `Schema changes to Postgres are deployed separately from the code that uses them, and every migration must be safe to run while the old code is still running.

## The expand and contract pattern

1. **Expand:** add the new column or table, nullable or with a default. Deploy.
2. **Migrate:** deploy code that writes both old and new, backfill in batches, then read from the new.
3. **Contract:** once nothing reads the old column, drop it in a later migration.

Never rename a column in one step. Add indexes with \`CREATE INDEX CONCURRENTLY\`. Long backfills run as jobs with a rate limit, not in the migration. Platform reviews every migration that touches the attempts table, because it is large and partitioned.`),
  h('logging', 'Logging conventions', '2024-04-15', `Logs are for understanding what a service did. They are structured JSON, one event per line, with a few required fields: time, service, level, message, and the tenant id and delivery id when they exist.

Log at info for events an operator would want to see in an investigation, at warn for things that recovered on their own and at error for things a person needs to look at. Never log payloads, secrets or customer personal data; log ids instead and look the data up through audited tools.

Logs are kept for 14 days. For anything you want to count or alert on, emit a metric instead of parsing logs.`),
  h('load-testing', 'Load testing', '2024-03-12', `Before a change that could affect throughput ships, such as new caching, a different queue layout or a new dependency in the delivery path, run the standard load test in the load-test environment.

The test replays a recorded hour of production traffic at two and five times its original rate, with a fleet of fake endpoints that answer slowly, fail sometimes and time out occasionally. It reports delivery latency percentiles, error rates and resource use, and compares them with the last run on the main branch.

A regression of more than ten percent in latency at the 99th percentile blocks the release until it is understood. Book the environment in #load-test; runs take about forty minutes.`),
  h('writing-runbooks', 'Writing a runbook', '2024-02-27', `Every alert that can page someone needs a runbook, linked from the alert itself. A runbook is read by a tired person who may not know the service, so write for them.

Use the same four headings as every [existing runbook](/runbooks/index.html): what it means, what to check, how to mitigate, and when to escalate. Put commands in full, ready to copy. Say what is safe: "restarting the workers loses nothing" saves minutes of hesitation.

Review runbooks after every incident that used them; the handoff note is a good place to list the ones that were wrong.`),
  h('open-source-projects', 'Our open-source projects', '2024-05-02', `We publish a few projects under the Apache 2.0 licence. Each has an owning team and follows the same review rules as internal code.

- **relay-sdk-node**, **relay-sdk-python**, **relay-sdk-go**: the official SDKs, owned by Developer Experience, documented in the [SDK guide](docs:/guides/sdks.html).
- **webhook-verify**: a tiny library that verifies Relay signatures in a dozen languages, owned by Security.
- **echo-endpoint**: the fake endpoint used in our load tests, useful for anyone testing webhooks.

Contributing to other projects is encouraged, see the [open source policy](handbook:/policies/open-source.html).`),
];

/**
 * @module crawler/demo/authoring/wiki
 * The engineering wiki. Its robots.txt disallows /drafts/, where unfinished
 * proposals live that must never show up in search; the archive keeps the
 * 2023 travel policy (a near-duplicate of the handbook's current one) and an
 * old page with a link to a page that was removed.
 */
import type { DemoPage, HostContent } from './shell.js';
import handbook from './handbook.js';
import { howtoPages } from './wiki-howto.js';
import { decisionPages, incidentPages } from './wiki-reviews.js';
import { runbookPages } from './wiki-runbooks.js';
import { servicePages, teamPages } from './wiki-services.js';

const travel = handbook.pages.find((p) => p.path === '/money/travel.html')!;

const archive: DemoPage[] = [
  {
    path: '/archive/travel-policy-2023.html', section: 'archive', title: 'Travel policy (2023 copy)', reviewed: '2023-02-01',
    summary: 'The travel policy as it stood in 2023, kept for expense disputes about trips from that year.',
    body: `Archived copy for trips taken in 2023. The current policy is in the [handbook](handbook:/money/travel.html).\n\n` +
      travel.body.replace(/\]\(\//g, '](handbook:/').replace('180 a night', '160 a night').replace('and 140 elsewhere', 'and 120 elsewhere').replace('14 days ahead', '10 days ahead'),
  },
  {
    path: '/archive/legacy-build-farm.html', section: 'archive', title: 'Legacy build farm (retired)', reviewed: '2021-08-30',
    body: `Until 2021, Relay was built on a farm of six build servers in the London office cupboard, known affectionately as the toasters. They were retired when we moved to hosted continuous integration and the [monorepo](/decisions/adr-007-monorepo.html).

The old setup instructions were at [Jenkins setup](/legacy/jenkins-setup.html); that page has since been deleted and nobody misses it. If you find a script that still refers to a toaster host name, it is dead code and can be removed.`,
  },
  {
    path: '/archive/game-day-2024-08.html', section: 'archive', title: 'Game day, August 2024: losing a DNS resolver', reviewed: '2024-08-22',
    body: `In August 2024 we practised losing our DNS resolver in the staging region. The team playing on-call did not know the scenario in advance.

It took 24 minutes to notice the cause and another 20 to find how to switch resolvers, because the option was documented only in a configuration file. We wrote the [DNS runbook](/runbooks/dns-resolution-failures.html) the same week. A month later the real thing happened, described in the [incident review of 17 September](/incidents/2024-09-17.html), and the runbook cut the outage short. Game days pay off.`,
  },
];

const drafts: DemoPage[] = [
  {
    path: '/drafts/delivery-engine-proposal.html', section: 'drafts', title: 'Draft: a new delivery engine',
    body: `Project Nightjar is the working name for a rewrite of the delivery workers around per-endpoint actors. This draft is not reviewed and its numbers are guesses; do not quote it.

The idea is that each endpoint gets a small, long-lived actor that owns its queue, its concurrency and its retry timer, instead of stateless workers sharing sorted sets in Redis. Nightjar would remove most of the memory pressure described in the backlog runbook.`,
  },
  {
    path: '/drafts/delivery-engine-costs.html', section: 'drafts', title: 'Draft: cost estimate for the delivery engine',
    body: `Rough cost notes for Nightjar, for discussion with Finance only. Running actors for every endpoint would need about 40 percent more memory in the workers but could retire the large Redis cluster, which costs more than the rest of the delivery path together.

These figures come from a one-afternoon spreadsheet and will change.`,
  },
  {
    path: '/drafts/reorg-notes.html', section: 'drafts', title: 'Draft: team structure notes',
    body: `Early notes on how the Delivery team might split if Nightjar goes ahead: one group for the actor runtime and one for the customer-facing delivery features. Nothing here is decided, and nobody should read it as an announcement.`,
  },
];

export default {
  host: 'wiki',
  owner: 'Engineering',
  home: `The engineering wiki is where Kestrel engineers write down how Relay works and how we run it: services, runbooks, incident reviews, decisions and the processes around them. Anyone can edit; the owning team reviews.

On call and just got paged? Go straight to the [runbooks](/runbooks/index.html). New to engineering here? Read the [deploy process](/howto/deploy-process.html), the [on-call guide](/howto/on-call.html) and the [local development guide](/howto/local-development.html). Policies for everyone are in the [handbook](handbook:/); customer-facing documentation is on [docs](docs:/).`,
  sections: [
    { key: 'howto', title: 'How-to', intro: 'Processes every engineer follows: deploying, being on call, reviewing code and handling incidents.' },
    { key: 'services', title: 'Services', intro: 'The service catalogue: what each part of Relay does, who owns it and what it depends on.' },
    { key: 'runbooks', title: 'Runbooks', intro: 'One page per alert: what it means, what to check, how to mitigate and when to escalate.' },
    { key: 'incidents', title: 'Incident reviews', intro: 'Blameless reviews of past incidents, newest last, with their follow-up actions.' },
    { key: 'decisions', title: 'Decisions', intro: 'Architecture decision records: the context, the choice and its consequences.' },
    { key: 'teams', title: 'Teams', intro: 'The engineering teams, their services and how to reach them.' },
    { key: 'archive', title: 'Archive', intro: 'Pages kept for reference that no longer describe how things work today.' },
    { key: 'drafts', title: 'Drafts', intro: 'Unreviewed proposals. Not indexed by the intranet search.' },
  ],
  pages: [...howtoPages, ...servicePages, ...runbookPages, ...incidentPages, ...decisionPages, ...teamPages, ...archive, ...drafts],
} satisfies HostContent;

/**
 * A harder judged set over the same corpus: questions and short queries
 * written the way a person who has not read the pages would put them, so
 * most of their words differ from the page's (synonyms, paraphrases,
 * "dad" for parents, "center" for centre, "outage" for production down).
 * Each answer was chosen by reading the pages in topics.ts: the page a
 * person asking would want first. Kept apart from queries.ts so the
 * ranking regression there stays as it was, and never used to tune the
 * ranker (test/bench/ranking.bench.ts measures it).
 */
import type { JudgedQuery } from './queries.js';

const d = (path: string) => ({ host: 'docs' as const, path });
const w = (path: string) => ({ host: 'wiki' as const, path });
const h = (path: string) => ({ host: 'handbook' as const, path });

export const HARD_QUERIES: JudgedQuery[] = [
  // product documentation (Lantern)
  { q: 'limit the spool size when the backend is unreachable', kind: 'question', relevant: [d('/disk-buffer')] },
  { q: 'which port does the agent serve its statistics on', kind: 'question', relevant: [d('/metrics')] },
  { q: 'virus scanner deletes lantern files', kind: 'keyword', relevant: [d('/install-windows')] },
  { q: 'ship logs from kubernetes pods', kind: 'keyword', relevant: [d('/install-docker')] },
  { q: 'events show a random id instead of the machine name', kind: 'question', relevant: [d('/install-docker')] },
  { q: 'do I lose lines when logrotate renames the file', kind: 'question', relevant: [d('/configure-inputs')] },
  { q: 'anonymise ip addresses before shipping', kind: 'keyword', relevant: [d('/redaction')] },
  { q: 'keep old logs cheaply in an amazon bucket', kind: 'question', relevant: [d('/outputs-s3')] },
  { q: 'search cluster answers too many requests', kind: 'question', relevant: [d('/outputs-elasticsearch')] },
  { q: 'my old config stopped working after updating', kind: 'question', relevant: [d('/upgrade')] },
  { q: 'get warned before an output gets stuck', kind: 'question', relevant: [d('/metrics')] },
  { q: 'extract fields from apache access log lines with my own pattern', kind: 'question', relevant: [d('/parsers')] },
  { q: 'self-signed ca bundle verification fails', kind: 'keyword', relevant: [d('/tls')] },
  { q: 'too much chatter from verbose logging', kind: 'keyword', relevant: [d('/sampling')] },
  // intranet IT and HR wiki
  { q: 'working from home access to the build servers', kind: 'question', relevant: [w('/vpn-setup')] },
  { q: 'time off for new dads', kind: 'keyword', relevant: [w('/parental-leave')] },
  { q: 'my account is blocked after typing the wrong login', kind: 'question', relevant: [w('/password-reset')] },
  { q: 'internet access for visitors', kind: 'keyword', relevant: [w('/wifi-guest')] },
  { q: 'get my money back for a hotel stay', kind: 'question', relevant: [w('/expenses')] },
  { q: 'fly to a customer in the united states', kind: 'question', relevant: [w('/travel-booking')] },
  { q: 'install an app that is not in the software center', kind: 'question', relevant: [w('/software-install')] },
  { q: 'I deleted a document by accident', kind: 'question', relevant: [w('/backup')] },
  { q: 'where can I leave my bike', kind: 'question', relevant: [w('/parking')] },
  { q: 'I have the flu and cannot come to work', kind: 'question', relevant: [w('/sick-leave')] },
  { q: 'unused holiday at the end of the year', kind: 'keyword', relevant: [w('/vacation')] },
  { q: 'text message codes no longer accepted at login', kind: 'question', relevant: [w('/mfa')] },
  { q: 'strange mail asking me to pay a bill', kind: 'question', relevant: [w('/phishing')] },
  { q: 'reserve a conference room', kind: 'keyword', relevant: [w('/meeting-rooms')] },
  { q: 'new starter where do I pick up my badge', kind: 'question', relevant: [w('/onboarding')] },
  // engineering handbook
  { q: 'how quickly must I respond when paged at night', kind: 'question', relevant: [h('/on-call')] },
  { q: 'undo a bad release', kind: 'keyword', relevant: [h('/deploy')] },
  { q: 'token leaked in git', kind: 'keyword', relevant: [h('/secrets')] },
  { q: 'how big should a pull request be', kind: 'question', relevant: [h('/code-review')] },
  { q: 'where do we write down why we chose a technology', kind: 'question', relevant: [h('/architecture-decisions')] },
  { q: 'fix a bug in an already shipped version', kind: 'question', relevant: [h('/branching')] },
  { q: 'tabs or spaces', kind: 'keyword', relevant: [h('/coding-style')] },
  { q: 'should tests use a mock database', kind: 'question', relevant: [h('/testing')] },
  { q: 'who is in charge during an outage', kind: 'question', relevant: [h('/incident')] },
];

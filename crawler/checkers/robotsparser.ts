/**
 * @module crawler/checkers/robotsparser
 * `hazelnut robotsparser`: Nutch's RobotRulesParser main. Reads a robots.txt
 * file and says, through the fetcher's own rules (crawler/fetch/robots), which
 * URLs the agent may fetch and what Crawl-delay it gets. The file stands for
 * the robots.txt of every URL checked, whatever its host; like a fetched one,
 * only its first 500 KiB count.
 */
import fs from 'node:fs';
import { UsageError } from '../../shared/errors.js';
import { robotsAgents } from '../fetch/protocol-http.js';
import { chooseAgent, ROBOTS_MAX_BYTES, robotsStateFor, rulesFor, type RobotRules } from '../fetch/robots.js';
import { checkerTool, readableFile, urlInputs } from './checker.js';

/** Which group of the file the agents get, said for people. */
function groupOf(txt: string, agents: string[]): string {
  // chooseAgent falls back to its first candidate when the file names none: a token no file can name tells that apart.
  const none = '\0';
  const chosen = chooseAgent(txt, [none, ...agents, '*']);
  if (chosen === none) return `${agents[0]} (no group applies: everything is allowed)`;
  return chosen === '*' ? `${agents[0]} (the * group)` : `${chosen} (its own group)`;
}

export default checkerTool({
  name: 'robotsparser',
  usage: `Usage: hazelnut robotsparser <robots.txt> [<url> | <url-file> ...] [-agent name]
Prints the agent and Crawl-delay the file gives, then allowed: or disallowed: for each URL.
URLs come from the arguments (an argument that is not a URL names a file of URLs, one per
line) or, with none, one per line from stdin.
  -agent name   robots.txt product token(s) to match, comma-separated or repeated, in order of
                precedence (default: http.agent.name, then http.robots.agents)`,
  args: { multi: ['agent'] },
  async prepare(ctx, a) {
    const [file, ...urls] = a._;
    if (!file) throw new UsageError('missing <robots.txt>');
    readableFile(file, 'robots.txt file');
    const inputs = urlInputs(urls, ctx, { files: true });
    const agents = ((a.agent as string[] | undefined) ?? []).flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean);
    if (agents.length === 0) {
      if (!ctx.conf.get('http.agent.name')) throw new UsageError('no agent: give -agent <name> or set http.agent.name');
      agents.push(...robotsAgents(ctx.conf));
    }
    const txt = fs.readFileSync(file).subarray(0, ROBOTS_MAX_BYTES).toString('utf8');
    const state = robotsStateFor({ status: 200, body: txt }, Date.now());
    // robots-parser answers only for URLs of the origin its file came from: one parse per origin.
    const byOrigin = new Map<string, RobotRules>();
    const rules = (origin: string) => {
      let r = byOrigin.get(origin);
      if (!r) byOrigin.set(origin, (r = rulesFor(origin, state, agents)));
      return r;
    };
    const delay = rules('http://robots.invalid').crawlDelayMs;
    ctx.out.write(`agent:\t${groupOf(txt, agents)}\ncrawl-delay:\t${delay === undefined ? 'none' : `${delay / 1000} s`}\n`);
    return {
      inputs,
      check: {
        check({ url, where }) {
          let u: URL;
          try {
            u = new URL(url);
          } catch {
            return { text: `malformed:\t${url}\t(${where})`, failed: true };
          }
          if (u.protocol !== 'http:' && u.protocol !== 'https:') return { text: `malformed:\t${url}\t(${where}: not http or https)`, failed: true };
          return { text: `${rules(u.origin).allowed(u.href) ? 'allowed' : 'disallowed'}:\t${url}` };
        },
      },
    };
  },
});

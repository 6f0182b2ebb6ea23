/**
 * @module crawler/plugin/tool
 * `hazelnut plugin list`: every plugin the crawler knows — built-in and from
 * plugin.folders — with its extension point, whether plugin.includes /
 * plugin.excludes make it active, and what it does. The answer to "why is my
 * filter not running?" without reading regular expressions. Under a plugin,
 * the properties it declares: type, default, the value in force and where
 * it was set.
 */
import { UsageError } from '../../shared/errors.js';
import { listPlugins, pluginFolders } from '../../shared/plugin/registry.js';
import { parseArgs, type Tool } from '../../shared/command.js';

const tool: Tool = {
  name: 'plugin',
  usage: 'Usage: hazelnut plugin list',
  async run(ctx, args) {
    const a = parseArgs(args, {});
    if (a._[0] !== 'list' || a._.length !== 1) throw new UsageError(a._.length ? `unknown subcommand ${a._.join(' ')}` : 'missing subcommand');
    const entries = await listPlugins(ctx.conf);
    const idW = Math.max(4, ...entries.map((e) => e.descriptor.id.length)) + 2;
    const ptW = Math.max(5, ...entries.map((e) => e.descriptor.point.length)) + 2;
    ctx.out.write(`${'active'.padEnd(8)}${'id'.padEnd(idW)}${'point'.padEnd(ptW)}description\n`);
    for (const e of entries) {
      const from = e.source === 'builtin' ? '' : ` [${e.source}]`;
      ctx.out.write(`${(e.active ? 'yes' : 'no').padEnd(8)}${e.descriptor.id.padEnd(idW)}${e.descriptor.point.padEnd(ptW)}${e.descriptor.description}${from}\n`);
      for (const p of e.descriptor.properties ?? []) {
        const now = ctx.conf.isDeclared(p.name) ? ` = ${JSON.stringify(ctx.conf.get(p.name))} (${ctx.conf.source(p.name)})` : '';
        ctx.out.write(`${' '.repeat(8)}property ${p.name} (${p.type ?? 'string'}, default ${JSON.stringify(p.default)})${now}: ${p.description}\n`);
      }
    }
    ctx.out.write(`plugin.includes = ${ctx.conf.get('plugin.includes')}\n`);
    if (ctx.conf.get('plugin.excludes')) ctx.out.write(`plugin.excludes = ${ctx.conf.get('plugin.excludes')}\n`);
    for (const f of pluginFolders(ctx.conf)) ctx.out.write(`plugin folder ${f.dir}${f.exists ? '' : ' (does not exist)'}\n`);
    return 0;
  },
};

export default tool;

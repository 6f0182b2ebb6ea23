/**
 * @module crawler/readlinkdb
 * `hazelnut readlinkdb <webdb> (-url <url> | -dump <out_dir>)`: the inlinks
 * and anchors invertlinks kept in the WebDB, in Nutch's Inlinks text form —
 * one URL's, or every URL's into `<out_dir>/part-00000`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { UsageError } from '../shared/errors.js';
import { parseArgs, type Tool } from '../shared/command.js';
import { openWebDb } from './webdb/webdb.js';

const READ_USAGE = 'Usage: hazelnut readlinkdb <webdb> (-url <url> | -dump <out_dir>)';

/** Nutch's Inlinks text form: ` fromUrl: <url> anchor: <text>` per inlink. */
function formatInlinks(rows: { source: string; anchor: string }[]): string {
  return rows.map((r) => ` fromUrl: ${r.source} anchor: ${r.anchor}\n`).join('');
}

const tool: Tool = {
  name: 'readlinkdb',
  usage: READ_USAGE,
  async run(ctx, args) {
    const a = parseArgs(args, { string: ['url', 'dump'] });
    if (a._.length !== 1) throw new UsageError(a._.length === 0 ? 'missing <webdb>' : `unexpected argument ${a._[1]}`);
    if ((a.url === undefined) === (a.dump === undefined)) throw new UsageError('give one of -url <url> or -dump <out_dir>');
    const db = openWebDb(a._[0]!, { readonly: true });
    try {
      if (typeof a.url === 'string') {
        const rows = db.inlinks(a.url, 'stored');
        ctx.out.write(rows.length ? formatInlinks(rows) : ' - no link information.\n');
        return rows.length ? 0 : 1;
      }
      const out = a.dump as string;
      if (fs.existsSync(out)) throw new UsageError(`output directory ${out} already exists`);
      fs.mkdirSync(out, { recursive: true });
      const file = path.join(out, 'part-00000');
      const fd = fs.openSync(file, 'w');
      let targets = 0;
      try {
        let cur: string | undefined;
        let batch: { source: string; anchor: string }[] = [];
        const flush = () => {
          if (cur !== undefined) fs.writeSync(fd, `${cur}\tInlinks:\n${formatInlinks(batch)}\n`);
        };
        for (const r of db.allInlinks()) {
          if (r.target !== cur) {
            flush();
            cur = r.target;
            batch = [];
            targets++;
          }
          batch.push(r);
        }
        flush();
      } finally {
        fs.closeSync(fd);
      }
      ctx.out.write(`readlinkdb: ${targets} URLs dumped to ${file}\n`);
      return 0;
    } finally {
      db.close();
    }
  },
};

export default tool;

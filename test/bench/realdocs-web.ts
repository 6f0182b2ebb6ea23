/**
 * Three real documentation sites on loopback for the crawl benchmarks: the
 * HTML manuals Debian packages for PostgreSQL 15, Python 3.11 and Django,
 * each served as its own host by a private nginx, the way an intranet serves
 * its documentation (gzip for clients that ask, a robots.txt that allows
 * everything). The packages are fetched with `apt-get download` and unpacked
 * with `dpkg-deb -x` into a cache directory (REALDOCS_DIR, else
 * <tmp>/hazelnut-realdocs), never installed; nginx runs with its own prefix
 * there and stops with the bench. Pages nobody here wrote, as documentation
 * and intranet pages are: long reference pages, indexes of thousands of
 * links, tables of contents in every page.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The sites: a Debian package, the directory of its HTML inside the package, the loopback address that serves it. */
export const REALDOCS_SITES = [
  { pkg: 'postgresql-doc-15', root: 'usr/share/doc/postgresql-doc-15/html', host: '127.0.16.1' },
  { pkg: 'python3.11-doc', root: 'usr/share/doc/python3.11/html', host: '127.0.16.2' },
  { pkg: 'python-django-doc', root: 'usr/share/doc/python-django-doc/html', host: '127.0.16.3' },
] as const;
const PORT = 8960;

export interface RealdocsWeb {
  origins: string[];
  /** The packages served, as `name version`. */
  packages: string[];
  stop(): void;
}

const which = (cmd: string): string | undefined =>
  ['/usr/sbin', '/usr/bin', '/sbin', '/bin', ...(process.env.PATH ?? '').split(':')].map((d) => path.join(d, cmd)).find((f) => fs.existsSync(f));

/** Why the web cannot be served here, or undefined when it can. */
export function realdocsUnavailable(): string | undefined {
  for (const cmd of ['nginx', 'dpkg-deb']) if (!which(cmd)) return `${cmd} is not installed (\`apt-get install --no-remove nginx-light\`)`;
  if (!which('apt-get')) return 'apt-get is not available to download the documentation packages';
  return undefined;
}

/** The packages unpacked in the cache, downloading those missing. */
function unpack(cache: string): string[] {
  const debs = path.join(cache, 'debs');
  const root = path.join(cache, 'root');
  fs.mkdirSync(debs, { recursive: true });
  const debOf = (pkg: string) => fs.readdirSync(debs).find((f) => f.startsWith(`${pkg}_`) && f.endsWith('.deb'));
  const missing = REALDOCS_SITES.filter((s) => !debOf(s.pkg)).map((s) => s.pkg);
  if (missing.length > 0) execFileSync('apt-get', ['download', ...missing], { cwd: debs, stdio: ['ignore', 'ignore', 'pipe'] });
  return REALDOCS_SITES.map((s) => {
    const deb = path.join(debs, debOf(s.pkg) ?? '');
    if (!fs.existsSync(path.join(root, s.root))) execFileSync('dpkg-deb', ['-x', deb, root]);
    return `${s.pkg} ${execFileSync('dpkg-deb', ['-f', deb, 'Version'], { encoding: 'utf8' }).trim()}`;
  });
}

/** Serves the three sites; resolves once each answers its `/`. */
export async function serveRealdocs(cache = process.env.REALDOCS_DIR ?? path.join(os.tmpdir(), 'hazelnut-realdocs')): Promise<RealdocsWeb> {
  const packages = unpack(cache);
  const run = path.join(cache, 'run');
  fs.rmSync(run, { recursive: true, force: true });
  fs.mkdirSync(path.join(run, 'logs'), { recursive: true });
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `${t}_temp_path ${path.join(run, t)};`).join(' ');
  const servers = REALDOCS_SITES.map(
    (s) =>
      `  server { listen ${s.host}:${PORT}; root ${path.join(cache, 'root', s.root)}; index index.html;\n` +
      `    location = /robots.txt { default_type text/plain; return 200 "User-agent: *\\nDisallow:\\n"; } }`,
  );
  const conf = path.join(run, 'nginx.conf');
  fs.writeFileSync(
    conf,
    [
      'worker_processes 2;',
      `pid ${path.join(run, 'nginx.pid')};`,
      `error_log ${path.join(run, 'logs', 'error.log')} warn;`,
      'events { worker_connections 512; }',
      'http {',
      '  include /etc/nginx/mime.types; default_type application/octet-stream;',
      '  sendfile on; keepalive_timeout 30; server_tokens off; access_log off;',
      `  ${temp}`,
      '  gzip on; gzip_types text/plain text/css application/javascript application/json;',
      ...servers,
      '}',
      '',
    ].join('\n'),
  );
  execFileSync(which('nginx')!, ['-p', `${run}/`, '-c', conf, '-e', path.join(run, 'logs', 'error.log')]);
  const stop = () => {
    try {
      process.kill(Number(fs.readFileSync(path.join(run, 'nginx.pid'), 'utf8')), 'SIGQUIT');
    } catch {
      // not running
    }
  };
  const origins = REALDOCS_SITES.map((s) => `http://${s.host}:${PORT}`);
  try {
    for (const o of origins) {
      for (let tries = 0; ; tries++) {
        const status = await fetch(`${o}/`).then((r) => r.status, () => 0);
        if (status === 200) break;
        if (tries === 50) throw new Error(`${o}/ does not answer 200 (nginx log: ${path.join(run, 'logs', 'error.log')})`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  } catch (e) {
    stop();
    throw e;
  }
  return { origins, packages, stop };
}

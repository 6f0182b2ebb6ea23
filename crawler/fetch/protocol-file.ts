/**
 * @module crawler/fetch/protocol-file
 * The `protocol-file` plugin (Nutch's protocol-file): `file:` URLs read from
 * the local file system, for documentation on a mounted share. A directory
 * becomes an HTML page linking its entries, as in Nutch, so the crawl walks
 * the tree through the ordinary outlink rules and URL filters; that page is
 * marked noindex, so its links are followed but "Index of …" is never a
 * hit that outranks the files it lists. A directory
 * URL without its trailing slash redirects to it, so relative links
 * resolve. Each answer carries the file's modification time as
 * Last-Modified, and a re-crawl's If-Modified-Since gets 304 for a file that
 * has not changed. Off unless plugin.includes names it: a crawler that can
 * read local files must be asked to.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Conf } from '../../shared/conf.js';
import { typeByExtension } from '../../shared/mime.js';
import { ProtocolFailure } from '../../shared/plugin/protocol-failure.js';
import type { PluginDescriptor, ProtocolRequest, ProtocolResponse } from '../../shared/plugin/extension-points.js';
import { escapeHtml } from '../../shared/escape.js';

/** The content type of a file by its extension; octet-stream (sniffed by the parser) otherwise. */
export function fileContentType(name: string): string {
  return typeByExtension(name) ?? 'application/octet-stream';
}

/**
 * A directory as a page of links to its entries, sorted by name, followed
 * but not indexed (robots noindex); subdirectories end in '/'. The links
 * are absolute and spelt as Node spells a path's file: URL, so one file
 * always has one URL.
 */
export function directoryPage(dirPath: string, entries: { name: string; dir: boolean }[]): string {
  const items = [...entries]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((e) => {
      const href = pathToFileURL(path.join(dirPath, e.name)).href + (e.dir ? '/' : '');
      return `<li><a href="${escapeHtml(href)}">${escapeHtml(e.name)}${e.dir ? '/' : ''}</a></li>`;
    });
  return `<!doctype html><html><head><meta name="robots" content="noindex"><title>Index of ${escapeHtml(dirPath)}</title></head><body><h1>Index of ${escapeHtml(dirPath)}</h1><ul>\n${items.join('\n')}\n</ul></body></html>`;
}

function answer(status: number, headers: Record<string, string>, body: Buffer = Buffer.alloc(0), truncated = false): ProtocolResponse {
  return { status, headers, body, truncated, wireBytes: body.length };
}

async function readLimited(file: string, limit: number): Promise<{ body: Buffer; truncated: boolean }> {
  const h = await fs.open(file, 'r');
  try {
    const size = (await h.stat()).size;
    const keep = limit < 0 ? size : Math.min(size, limit);
    const buf = Buffer.alloc(keep);
    let off = 0;
    while (off < keep) {
      const { bytesRead } = await h.read(buf, off, keep - off, off);
      if (bytesRead === 0) break;
      off += bytesRead;
    }
    return { body: buf.subarray(0, off), truncated: size > keep };
  } finally {
    await h.close();
  }
}

export async function getFile(req: ProtocolRequest, contentLimit: number): Promise<ProtocolResponse> {
  let p: string;
  try {
    p = fileURLToPath(req.url);
  } catch (e) {
    throw new ProtocolFailure(`not a local file URL: ${(e as Error).message}`, 'bad_url');
  }
  let st;
  try {
    st = await fs.stat(p);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return answer(404, {});
    if (code === 'EACCES' || code === 'EPERM') return answer(403, {});
    throw new ProtocolFailure(`cannot read ${p}: ${(e as Error).message}`, code ?? 'io');
  }
  const lastModified = new Date(Math.floor(st.mtimeMs / 1000) * 1000);
  const headers: Record<string, string> = { 'last-modified': lastModified.toUTCString() };
  if (st.isDirectory() && !req.url.endsWith('/')) return answer(301, { location: `${req.url}/` });
  const since = req.ifModifiedSince ? Date.parse(req.ifModifiedSince) : NaN;
  if (Number.isFinite(since) && lastModified.getTime() <= since) return answer(304, headers);
  try {
    if (st.isDirectory()) {
      const entries = (await fs.readdir(p, { withFileTypes: true }))
        .filter((e) => e.isFile() || e.isDirectory())
        .map((e) => ({ name: e.name, dir: e.isDirectory() }));
      const body = Buffer.from(directoryPage(p, entries), 'utf8');
      return answer(200, { ...headers, 'content-type': 'text/html; charset=utf-8', 'content-length': String(body.length) }, body);
    }
    if (!st.isFile()) return answer(404, {});
    const { body, truncated } = await readLimited(p, req.limit ?? contentLimit);
    return answer(200, { ...headers, 'content-type': fileContentType(p), 'content-length': String(st.size) }, body, truncated);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM') return answer(403, headers);
    throw new ProtocolFailure(`cannot read ${p}: ${(e as Error).message}`, code ?? 'io');
  }
}

export const protocolFile: PluginDescriptor<'protocol'> = {
  id: 'protocol-file',
  point: 'protocol',
  description: 'file: URLs from the local file system; directories become pages linking their entries; modification times for re-crawls',
  create(conf: Conf) {
    const limit = conf.getInt('file.content.limit');
    return { schemes: ['file'], get: (req) => getFile(req, limit) };
  },
};

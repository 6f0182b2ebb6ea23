/**
 * @module crawler/parse/documents/extract
 * Text out of PDF and office files, run only inside the document worker
 * (these libraries can spin or allocate without bound on a hostile file).
 * PDF goes through Mozilla's pdf.js (`pdfjs-dist`, legacy build for Node
 * 20); .docx through `mammoth`, whose HTML keeps the headings; .xlsx, .pptx
 * and OpenDocument files are zip archives of XML, unzipped with `fflate`
 * and read with htmlparser2 in XML mode into the same kind of simple HTML,
 * so the parse-html rules (title, headings, links) apply to all of them.
 */
import { unzipSync, type Unzipped } from 'fflate';
import { Parser as XmlParser } from 'htmlparser2';
import mammoth from 'mammoth';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import * as pdfWorker from 'pdfjs-dist/legacy/build/pdf.worker.mjs';
import { escapeHtml } from '../../../shared/escape.js';

// pdf.js runs its own "worker" on this thread when it finds it here, instead of importing it on first use.
(globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = pdfWorker;

export type DocumentKind = 'pdf' | 'docx' | 'xlsx' | 'pptx' | 'odf';

export interface DocumentLimits {
  /** PDF pages and slides read; the rest is left out and the result marked truncated. */
  maxPages: number;
  /** Bytes an archive may unpack to. */
  maxUnpackedBytes: number;
}

export interface DocumentMeta {
  title?: string;
  /** The first heading of an office file, its title when it states none. */
  heading?: string;
  author?: string;
  /** ISO 8601. */
  created?: string;
  modified?: string;
  pages?: number;
  truncatedPages?: boolean;
}

/** Either HTML to parse further (office files) or plain text (PDF). */
export interface DocumentExtract {
  html?: string;
  text?: string;
  meta: DocumentMeta;
}

export async function extractDocument(kind: DocumentKind, bytes: Uint8Array, limits: DocumentLimits): Promise<DocumentExtract> {
  if (kind === 'pdf') return extractPdf(bytes, limits);
  const zip = unzipBounded(bytes, limits.maxUnpackedBytes);
  const x =
    kind === 'docx' ? await extractDocx(bytes, zip) : kind === 'xlsx' ? { html: xlsxHtml(zip), meta: coreProperties(zip) } : kind === 'pptx' ? pptxHtml(zip, limits) : odfHtml(zip);
  const heading = firstHeading(x.html ?? '');
  return heading ? { ...x, meta: { ...x.meta, heading } } : x;
}

function firstHeading(html: string): string | undefined {
  let depth = 0;
  let text = '';
  let found: string | undefined;
  const p = new XmlParser({
    onopentag: (n) => {
      if (found === undefined && /^h[1-6]$/.test(n)) depth++;
    },
    ontext: (t) => {
      if (depth > 0) text += t;
    },
    onclosetag: (n) => {
      if (depth > 0 && /^h[1-6]$/.test(n) && --depth === 0 && text.trim()) found = text.replace(/\s+/g, ' ').trim();
      else if (depth === 0) text = '';
    },
  }, { decodeEntities: true });
  p.write(html);
  p.end();
  return found;
}

/** The XML parts of an archive, refusing one that unpacks past the limit (a zip bomb). */
function unzipBounded(bytes: Uint8Array, maxBytes: number): Unzipped {
  let total = 0;
  return unzipSync(bytes, {
    filter: (f) => {
      if (!/\.(xml|rels)$/.test(f.name) && f.name !== 'mimetype') return false;
      total += f.originalSize;
      if (total > maxBytes) throw new Error(`archive unpacks to more than ${maxBytes} bytes`);
      return true;
    },
  });
}

const part = (zip: Unzipped, name: string) => (zip[name] ? Buffer.from(zip[name]).toString('utf8') : undefined);

interface XmlHandlers {
  open?(name: string, attrs: Record<string, string>): void;
  text?(text: string): void;
  close?(name: string): void;
}

function walkXml(xml: string, h: XmlHandlers): void {
  const p = new XmlParser(
    { onopentag: (n, a) => h.open?.(n, a), ontext: (t) => h.text?.(t), onclosetag: (n) => h.close?.(n) },
    { xmlMode: true, decodeEntities: true },
  );
  p.write(xml);
  p.end();
}

/** Text of the first element of each name, e.g. Dublin Core fields. */
function firstTexts(xml: string | undefined, names: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  if (!xml) return out;
  let cur: string | null = null;
  let buf = '';
  walkXml(xml, {
    open: (n) => {
      if (names.includes(n) && !(n in out)) (cur = n), (buf = '');
    },
    text: (t) => {
      if (cur) buf += t;
    },
    close: (n) => {
      if (n === cur) {
        out[n] = buf.trim();
        cur = null;
      }
    },
  });
  return out;
}

function isoDate(s: string | undefined): string | undefined {
  if (!s) return undefined;
  const pdf = /^D:(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?/.exec(s);
  const t = pdf ? Date.UTC(+pdf[1]!, +(pdf[2] ?? 1) - 1, +(pdf[3] ?? 1), +(pdf[4] ?? 0), +(pdf[5] ?? 0), +(pdf[6] ?? 0)) : Date.parse(s);
  return Number.isFinite(t) ? new Date(t).toISOString() : undefined;
}

function cleanMeta(m: DocumentMeta): DocumentMeta {
  const out: DocumentMeta = {};
  for (const [k, v] of Object.entries(m)) if (v !== undefined && v !== '') (out as Record<string, unknown>)[k] = v;
  return out;
}

/** OOXML `docProps/core.xml`. */
function coreProperties(zip: Unzipped): DocumentMeta {
  const f = firstTexts(part(zip, 'docProps/core.xml'), ['dc:title', 'dc:creator', 'dcterms:created', 'dcterms:modified']);
  return cleanMeta({ title: f['dc:title'], author: f['dc:creator'], created: isoDate(f['dcterms:created']), modified: isoDate(f['dcterms:modified']) });
}

async function extractPdf(bytes: Uint8Array, limits: DocumentLimits): Promise<DocumentExtract> {
  // pdf.js takes ownership of (detaches) the buffer it is given.
  const doc = await getDocument({ data: bytes.slice(), isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0 }).promise;
  try {
    const info = ((await doc.getMetadata()).info ?? {}) as Record<string, unknown>;
    const str = (k: string) => (typeof info[k] === 'string' ? (info[k] as string).trim() : undefined);
    const pages = Math.min(doc.numPages, limits.maxPages);
    const texts: string[] = [];
    for (let i = 1; i <= pages; i++) {
      const page = await doc.getPage(i);
      const tc = await page.getTextContent();
      let t = '';
      for (const item of tc.items) if ('str' in item) t += item.str + (item.hasEOL ? '\n' : ' ');
      texts.push(t.replace(/[ \t]+/g, ' ').trim());
      page.cleanup();
    }
    const meta = cleanMeta({
      title: str('Title'),
      author: str('Author'),
      created: isoDate(str('CreationDate')),
      modified: isoDate(str('ModDate')),
      pages: doc.numPages,
      truncatedPages: doc.numPages > pages || undefined,
    });
    return { text: texts.join('\n\n'), meta };
  } finally {
    await doc.destroy();
  }
}

async function extractDocx(bytes: Uint8Array, zip: Unzipped): Promise<DocumentExtract> {
  // Images would arrive as data: URLs; the index wants none of them.
  const noImages = mammoth.images.imgElement(() => Promise.resolve({ src: '' }));
  const r = await mammoth.convertToHtml({ buffer: Buffer.from(bytes) }, { convertImage: noImages, externalFileAccess: false });
  return { html: r.value, meta: coreProperties(zip) };
}

/** Parts named `prefix<N>.xml`, in numeric order. */
function numbered(zip: Unzipped, prefix: string): string[] {
  const re = new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(\\d+)\\.xml$`);
  return Object.keys(zip)
    .map((n) => [n, re.exec(n)?.[1]] as const)
    .filter((x): x is readonly [string, string] => x[1] !== undefined)
    .sort((a, b) => Number(a[1]) - Number(b[1]))
    .map((x) => x[0]);
}

function xlsxHtml(zip: Unzipped): string {
  const shared: string[] = [];
  let si: string | null = null;
  let inT = false;
  walkXml(part(zip, 'xl/sharedStrings.xml') ?? '', {
    open: (n) => {
      if (n === 'si') si = '';
      else if (n === 't') inT = true;
    },
    text: (t) => {
      if (inT && si !== null) si += t;
    },
    close: (n) => {
      if (n === 't') inT = false;
      else if (n === 'si') shared.push(si ?? ''), (si = null);
    },
  });
  const names: string[] = [];
  walkXml(part(zip, 'xl/workbook.xml') ?? '', { open: (n, a) => n === 'sheet' && names.push(a.name ?? '') });
  const html: string[] = [];
  numbered(zip, 'xl/worksheets/sheet').forEach((file, i) => {
    html.push(`<h2>${escapeHtml(names[i] ?? `Sheet ${i + 1}`)}</h2><table>`);
    let row: string[] = [];
    let cellType = '';
    let value = '';
    let inValue = false;
    walkXml(part(zip, file)!, {
      open: (n, a) => {
        if (n === 'row') row = [];
        else if (n === 'c') (cellType = a.t ?? ''), (value = '');
        else if (n === 'v' || n === 't') inValue = true;
      },
      text: (t) => {
        if (inValue) value += t;
      },
      close: (n) => {
        if (n === 'v' || n === 't') inValue = false;
        else if (n === 'c') row.push(cellType === 's' ? (shared[Number(value)] ?? '') : value);
        else if (n === 'row' && row.some((c) => c.trim())) html.push(`<tr>${row.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`);
      },
    });
    html.push('</table>');
  });
  return html.join('\n');
}

function pptxHtml(zip: Unzipped, limits: DocumentLimits): DocumentExtract {
  const slides = numbered(zip, 'ppt/slides/slide');
  const read = slides.slice(0, limits.maxPages);
  const html: string[] = [];
  for (const file of read) {
    html.push('<section>');
    let isTitle = false;
    let para = '';
    let paras: string[] = [];
    let inT = false;
    walkXml(part(zip, file)!, {
      open: (n, a) => {
        if (n === 'p:sp') (isTitle = false), (paras = []);
        else if (n === 'p:ph' && /title/i.test(a.type ?? '')) isTitle = true;
        else if (n === 'a:p') para = '';
        else if (n === 'a:t') inT = true;
      },
      text: (t) => {
        if (inT) para += t;
      },
      close: (n) => {
        if (n === 'a:t') inT = false;
        else if (n === 'a:p' && para.trim()) paras.push(para);
        else if (n === 'p:sp') html.push(...paras.map((p) => (isTitle ? `<h2>${escapeHtml(p)}</h2>` : `<p>${escapeHtml(p)}</p>`)));
      },
    });
    html.push('</section>');
  }
  const meta = coreProperties(zip);
  return { html: html.join('\n'), meta: cleanMeta({ ...meta, pages: slides.length, truncatedPages: slides.length > read.length || undefined }) };
}

/** OpenDocument text, spreadsheet or presentation: `content.xml` and `meta.xml`. */
function odfHtml(zip: Unzipped): DocumentExtract {
  const content = part(zip, 'content.xml');
  if (content === undefined) throw new Error('not an OpenDocument file (no content.xml)');
  const html: string[] = [];
  let open: string | null = null;
  let buf = '';
  let depth = 0;
  walkXml(content, {
    open: (n, a) => {
      if (open) {
        if (n === 'text:s') buf += ' '.repeat(Math.min(Number(a['text:c'] ?? 1) || 1, 8));
        else if (n === 'text:tab' || n === 'text:line-break') buf += ' ';
        else if (n === 'text:p' || n === 'text:h') depth++;
        return;
      }
      if (n === 'text:h') (open = `h${Math.min(Math.max(Number(a['text:outline-level'] ?? 1) || 1, 1), 6)}`), (buf = '');
      else if (n === 'text:p') (open = 'p'), (buf = '');
      else if (n === 'table:table') html.push(`<h2>${escapeHtml(a['table:name'] ?? '')}</h2>`);
    },
    text: (t) => {
      if (open) buf += t;
    },
    close: (n) => {
      if (!open || (n !== 'text:p' && n !== 'text:h')) return;
      if (depth > 0) {
        depth--;
        buf += ' ';
        return;
      }
      if (buf.trim()) html.push(`<${open}>${escapeHtml(buf)}</${open}>`);
      open = null;
    },
  });
  const f = firstTexts(part(zip, 'meta.xml'), ['dc:title', 'dc:creator', 'meta:initial-creator', 'meta:creation-date', 'dc:date']);
  const meta = cleanMeta({
    title: f['dc:title'],
    author: f['meta:initial-creator'] || f['dc:creator'],
    created: isoDate(f['meta:creation-date']),
    modified: isoDate(f['dc:date']),
  });
  return { html: html.join('\n'), meta };
}

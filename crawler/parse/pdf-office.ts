/**
 * @module crawler/parse/pdf-office
 * The parse-pdf and parse-office plugins (Nutch's parse-pdf, parse-msword,
 * parse-msexcel, parse-mspowerpoint and parse-oo): the bytes go to the
 * document worker, and what comes back becomes a parse like any page's.
 * Office files come back as simple HTML and go through parse-html, so their
 * headings, paragraphs and hyperlinks are read as a web page's would be.
 * The title is the document's own (PDF Info, Dublin Core), else its first
 * line; author and dates land in the parse meta, where index-more reads them.
 */
import type { Conf } from '../../shared/conf.js';
import type { ParseInput, ParseOutput, Parser, PluginDescriptor } from '../../shared/plugin/extension-points.js';
import type { DocumentExtract, DocumentKind } from './documents/extract.js';
import { DocumentWorker, type DocumentWorkerOptions } from './documents/pool.js';
import { HtmlPageParser } from './html.js';

const OFFICE_TYPES: Record<string, DocumentKind> = {
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
  'application/vnd.oasis.opendocument.text': 'odf',
  'application/vnd.oasis.opendocument.spreadsheet': 'odf',
  'application/vnd.oasis.opendocument.presentation': 'odf',
};

/** One worker per distinct set of limits, shared by every parser of the process. */
const workers = new Map<string, DocumentWorker>();

function documentWorker(conf: Conf): DocumentWorker {
  const o: DocumentWorkerOptions = {
    timeoutMs: conf.getDuration('parser.timeout', 's'),
    memoryMb: conf.getInt('parser.document.memory.mb'),
    maxPages: conf.getInt('parser.document.max.pages'),
    maxUnpackedBytes: conf.getInt('parser.document.max.unpacked.mb') * 1024 * 1024,
  };
  const key = JSON.stringify(o);
  let w = workers.get(key);
  if (!w) workers.set(key, (w = new DocumentWorker(o)));
  return w;
}

const firstLine = (text: string) => text.trim().split('\n', 1)[0]!.trim().slice(0, 200);

function documentMeta(x: DocumentExtract): ParseOutput['meta'] {
  const meta: ParseOutput['meta'] = {};
  for (const k of ['author', 'created', 'modified', 'pages'] as const) if (x.meta[k] !== undefined) meta[k] = x.meta[k];
  if (x.meta.truncatedPages) meta.truncatedPages = true;
  return meta;
}

export class DocumentParser implements Parser {
  constructor(
    readonly contentTypes: string[],
    private readonly kindOf: (type: string) => DocumentKind,
    private readonly worker: DocumentWorker,
    private readonly html: HtmlPageParser,
  ) {}

  async parse(input: ParseInput): Promise<ParseOutput> {
    const type = (input.contentType ?? '').split(';')[0]!.trim().toLowerCase();
    if (input.truncated) return { status: 'failed', message: 'document truncated by the content limit (http.content.limit)', title: '', text: '', outlinks: [], meta: {} };
    let x: DocumentExtract;
    try {
      x = await this.worker.extract(this.kindOf(type), input.bytes);
    } catch (e) {
      return { status: 'failed', message: `cannot read ${type}: ${(e as Error).message}`, title: '', text: '', outlinks: [], meta: {} };
    }
    const meta = documentMeta(x);
    if (x.html === undefined) {
      const text = (x.text ?? '').trim();
      return { status: 'success', title: x.meta.title || firstLine(text), text, outlinks: [], meta };
    }
    const page = await this.html.parse({ ...input, contentType: 'text/html; charset=utf-8', charset: 'utf-8', bytes: Buffer.from(x.html, 'utf8') });
    return { ...page, title: x.meta.title || x.meta.heading || firstLine(page.text), meta: { ...page.meta, ...meta } };
  }
}

export const parsePdf: PluginDescriptor<'parser'> = {
  id: 'parse-pdf',
  point: 'parser',
  description: 'PDF (pdf.js, in the document worker): text of every page, title, author and dates',
  create: (conf) => new DocumentParser(['application/pdf', 'application/x-pdf'], () => 'pdf', documentWorker(conf), new HtmlPageParser('utf-8', false)),
};

export const parseOffice: PluginDescriptor<'parser'> = {
  id: 'parse-office',
  point: 'parser',
  description: '.docx (mammoth), .xlsx, .pptx and OpenDocument files, in the document worker: text, headings, links, title, author and dates',
  create: (conf) => new DocumentParser(Object.keys(OFFICE_TYPES), (t) => OFFICE_TYPES[t] ?? 'odf', documentWorker(conf), new HtmlPageParser('utf-8', false)),
};

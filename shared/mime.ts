/**
 * @module shared/mime
 * Content types by file extension: for files whose type no server states
 * (protocol-file, a URL's extension at index time) and for the searcher's
 * `type:pdf`, `type:docx`, … which name a document format by its extension.
 */
const BY_EXTENSION: Record<string, string> = {
  html: 'text/html', htm: 'text/html', xhtml: 'application/xhtml+xml', txt: 'text/plain', md: 'text/markdown', csv: 'text/csv',
  xml: 'text/xml', json: 'application/json', pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  odp: 'application/vnd.oasis.opendocument.presentation',
};

/** The content type of a file name's or URL path's extension, if known. */
export function typeByExtension(name: string): string | undefined {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  return ext ? BY_EXTENSION[ext] : undefined;
}

/** Document formats a `type:` query may name by extension. */
const DOCUMENT_EXTENSIONS = new Set(['pdf', 'docx', 'xlsx', 'pptx', 'odt', 'ods', 'odp']);

/** `pdf` → `application/pdf` for document formats; any other value unchanged. */
export function documentType(value: string): string {
  return DOCUMENT_EXTENSIONS.has(value) ? BY_EXTENSION[value]! : value;
}

/**
 * @module shared/doc-type
 * Content types as people name them: a facet or a report that says
 * `application/vnd.openxmlformats-officedocument.wordprocessingml.document`
 * tells a reader nothing that "Word" does not. The searcher's facets and
 * results and the crawl report name types through here.
 */

const NAMES: Record<string, string> = {
  'text/html': 'HTML',
  'application/xhtml+xml': 'HTML',
  'text/plain': 'plain text',
  'text/markdown': 'Markdown',
  'text/x-markdown': 'Markdown',
  'text/csv': 'CSV',
  'application/pdf': 'PDF',
  'application/json': 'JSON',
  'text/xml': 'XML',
  'application/xml': 'XML',
  'application/msword': 'Word',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'Word',
  'application/vnd.ms-excel': 'Excel',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'Excel',
  'application/vnd.ms-powerpoint': 'PowerPoint',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'PowerPoint',
  'application/vnd.oasis.opendocument.text': 'OpenDocument text',
  'application/vnd.oasis.opendocument.spreadsheet': 'OpenDocument spreadsheet',
  'application/vnd.oasis.opendocument.presentation': 'OpenDocument presentation',
};

/** `application/pdf; charset=…` → PDF; a type without a name stays as it is. */
export function typeName(contentType: string): string {
  const bare = contentType.split(';')[0]!.trim().toLowerCase();
  return NAMES[bare] ?? contentType;
}

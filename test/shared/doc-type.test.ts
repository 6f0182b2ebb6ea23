/** Content types as people name them: a table of types and the names the facets, results and report show. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { typeName } from '../../shared/doc-type.js';
import { facetLabel } from '../../searcher/facets.js';

const CASES: [type: string, name: string][] = [
  ['text/html', 'HTML'],
  ['text/html; charset=utf-8', 'HTML'],
  ['application/xhtml+xml', 'HTML'],
  ['text/plain', 'plain text'],
  ['text/markdown', 'Markdown'],
  ['application/pdf', 'PDF'],
  ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'Word'],
  ['application/msword', 'Word'],
  ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'Excel'],
  ['application/vnd.openxmlformats-officedocument.presentationml.presentation', 'PowerPoint'],
  ['application/vnd.oasis.opendocument.text', 'OpenDocument text'],
  ['application/vnd.oasis.opendocument.spreadsheet', 'OpenDocument spreadsheet'],
  ['application/vnd.oasis.opendocument.presentation', 'OpenDocument presentation'],
  ['APPLICATION/PDF', 'PDF'],
  ['image/x-unheard-of', 'image/x-unheard-of'],
];

for (const [type, name] of CASES) test(`${type} → ${name}`, () => assert.is(typeName(type), name));

test('the type facet is labelled by the same names; languages by theirs', () => {
  assert.is(facetLabel('type', 'application/vnd.oasis.opendocument.text'), 'OpenDocument text');
  assert.is(facetLabel('lang', 'de'), 'German');
});

test.run();

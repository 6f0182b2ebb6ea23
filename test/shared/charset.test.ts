import iconv from 'iconv-lite';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { canonicalCharset, decodeText } from '../../shared/charset.js';
import { decodeContent } from '../../searcher/details.js';

test('canonicalCharset: WHATWG names first, iconv-lite for the rest, undefined for junk', () => {
  const table: [string | null | undefined, string | undefined][] = [
    ['UTF-8', 'utf-8'],
    [' "ISO-8859-1" ', 'windows-1252'], // WHATWG: latin1 is windows-1252
    ['Shift_JIS', 'shift_jis'],
    ['iso-8859-16', 'iso-8859-16'], // only iconv-lite knows it
    ['bogus', undefined],
    ['', undefined],
    [null, undefined],
  ];
  for (const [label, name] of table) assert.is(canonicalCharset(label), name, String(label));
});

test('decodeText: TextDecoder, iconv-lite, and windows-1252 for an unknown charset', () => {
  const table: [Buffer, string, string][] = [
    [Buffer.from('naïve'), 'utf-8', 'naïve'],
    [iconv.encode('café', 'windows-1252'), 'windows-1252', 'café'],
    [iconv.encode('日本語', 'shift_jis'), 'shift_jis', '日本語'],
    [iconv.encode('Ș', 'iso-8859-16'), 'iso-8859-16', 'Ș'],
    [iconv.encode('café', 'windows-1252'), 'bogus', 'café'],
  ];
  for (const [bytes, charset, text] of table) assert.is(decodeText(bytes, charset), text, charset);
});

test("the searcher's cached copy decodes as the parser does, also where only iconv-lite knows the charset", () => {
  const record = (charset: string | null, bytes: Buffer) => ({ url: 'http://127.0.0.1/', contentType: 'text/html', charset, bytes, truncated: false });
  assert.is(decodeContent(record('iso-8859-16', iconv.encode('Ștefan', 'iso-8859-16'))), 'Ștefan');
  assert.is(decodeContent(record(null, iconv.encode('crème', 'windows-1252'))), 'crème');
});

test.run();

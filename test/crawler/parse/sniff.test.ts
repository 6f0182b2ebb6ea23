import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { looksBinary, sniffContentType } from '../../../crawler/parse/sniff.js';

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const nuls = (n: number) => '\0'.repeat(n);

test('the declared type wins over sniffing, unless the bytes begin with a known binary signature', () => {
  // [declared type, bytes, type to parse as, why]
  const cases: [string | null, Buffer, string, string][] = [
    ['text/html; charset=utf-8', Buffer.from(`<html>${nuls(600)}<a href="/x">x</a>`), 'text/html', 'runs of NUL in a declared page: parsed as a browser shows it'],
    ['text/html', Buffer.from('<html>\0<p>x'), 'text/html', 'one NUL'],
    ['text/html', Buffer.from([0, 1, 2, 3, 0, 0, 5]), 'text/html', 'control bytes alone do not overrule the declaration'],
    ['text/plain', Buffer.from(`notes${nuls(100)}more`), 'text/plain', 'declared plain text'],
    ['application/xhtml+xml', Buffer.from(`<html>${nuls(50)}</html>`), 'application/xhtml+xml', 'a declared XML type'],
    ['text/html', Buffer.from([...PNG, 0, 0, 0, 13]), 'image/png', 'a PNG sent as text/html'],
    ['text/html', Buffer.from('%PDF-1.7\n...'), 'application/pdf', 'a PDF sent as text/html'],
    ['text/html', Buffer.from([0x1f, 0x8b, 8, 0]), 'application/gzip', 'gzip sent as text/html'],
    [null, Buffer.from('<html>\0<p>x'), 'application/octet-stream', 'undeclared: one NUL means binary'],
    ['application/octet-stream', Buffer.from([1, 2, 3, 4, 5, 6, 7, 8, 65]), 'application/octet-stream', 'generic: control bytes mean binary'],
    [null, Buffer.from('  <!DOCTYPE html><p>x'), 'text/html', 'undeclared HTML'],
    ['application/octet-stream', Buffer.from('just words'), 'text/plain', 'generic text'],
    ['application/pdf', Buffer.from('<html>'), 'application/pdf', 'a declared binary type is kept'],
  ];
  for (const [declared, bytes, want, why] of cases) assert.is(sniffContentType(declared, bytes), want, why);
});

test('looksBinary: a signature always; NUL and control bytes only without a declared text type', () => {
  const cases: [Buffer, boolean, boolean][] = [
    [Buffer.from(PNG), true, true],
    [Buffer.from(`a${nuls(500)}b`), true, false],
    [Buffer.from(`a${nuls(500)}b`), false, true],
    [Buffer.from('plain words'), false, false],
    [Buffer.from([0xef, 0xbb, 0xbf, 0x41, 0x01, 0x02]), false, false],
  ];
  for (const [bytes, declaredText, want] of cases) assert.is(looksBinary(bytes, declaredText), want, `${JSON.stringify(bytes.toString('latin1').slice(0, 8))} ${declaredText}`);
});

test.run();

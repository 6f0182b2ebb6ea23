/** file.url.map: where a file share's hits are opened, and the path shown for copying; tables of cases. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { localPath, mappedFileUrl, parseFileUrlMap } from '../../searcher/file-links.js';

const MAP = 'file:///srv/share/=smb://fs1/share/, file:///srv/share/web/=https://files.example.com/ file:///mnt/docs/=https://docs.example.com/d/';

const MAPPED: [url: string, opened: string | undefined][] = [
  ['file:///srv/share/policies/travel.pdf', 'smb://fs1/share/policies/travel.pdf'],
  ['file:///srv/share/web/index.md', 'https://files.example.com/index.md'],
  ['file:///srv/share/My%20Notes.txt', 'smb://fs1/share/My%20Notes.txt'],
  ['file:///mnt/docs/a/b.docx', 'https://docs.example.com/d/a/b.docx'],
  ['file:///srv/shared/x.txt', undefined],
  ['file:///tmp/x.txt', undefined],
  ['http://srv/share/x', undefined],
];

for (const [url, opened] of MAPPED) test(`${url} opens as ${opened ?? 'its own URL'}`, () => assert.is(mappedFileUrl(url, parseFileUrlMap(MAP)), opened));

test('the longest prefix wins, whatever the order written', () => {
  assert.equal(
    parseFileUrlMap(MAP).map((p) => p.from),
    ['file:///srv/share/web/', 'file:///srv/share/', 'file:///mnt/docs/'],
  );
  assert.equal(parseFileUrlMap(''), []);
});

const BAD = ['/srv/share/=smb://fs1/share/', 'file:///srv/share/', 'file:///srv/share/=', 'file:///srv/share/=fs1/share', 'http://a/=http://b/'];
for (const entry of BAD)
  test(`refused with the property named: ${entry}`, () => {
    assert.throws(() => parseFileUrlMap(`file:///ok/=https://ok/ ${entry}`), (e: Error) => e.message.includes('file.url.map') && e.message.includes(JSON.stringify(entry)));
  });

const PATHS: [url: string, path: string | undefined][] = [
  ['file:///srv/share/My%20Notes.txt', '/srv/share/My Notes.txt'],
  ['file:///srv/share/d%C3%A9j%C3%A0.md', '/srv/share/déjà.md'],
  ['http://example.com/a.txt', undefined],
];
for (const [url, p] of PATHS) test(`the path shown for ${url}`, () => assert.is(localPath(url), p));

test.run();

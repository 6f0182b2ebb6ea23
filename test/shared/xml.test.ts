import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readXml, XmlSyntaxError } from '../../shared/xml.js';

/** The events of a reading, one string each: `<a>`, `"text"`, `</a>`, `</a implied>`. */
function events(src: string, forgiving: boolean): string[] {
  const out: string[] = [];
  readXml(
    src,
    {
      open: (name) => out.push(`<${name}>`),
      text: (t) => out.push(JSON.stringify(t)),
      close: (name, implied) => out.push(implied ? `</${name} implied>` : `</${name}>`),
    },
    { forgiving },
  );
  return out;
}

test('a forgiving reading: what the web sends is read as far as it goes', () => {
  const cases: [string, string[]][] = [
    ['<a><b>x</b></a>', ['<a>', '<b>', '"x"', '</b>', '</a>']],
    ['<a><b/></a>', ['<a>', '<b>', '</b implied>', '</a>']],
    ['<a><b>cut', ['<a>', '<b>', '"cut"', '</b implied>', '</a implied>']],
    ['<a>x &amp; y &nbsp; z & w &#0;</a>', ['<a>', '"x & y &nbsp; z & w &#0;"', '</a>']],
    ['<a><b><c>x</a>', ['<a>', '<b>', '<c>', '"x"', '</c implied>', '</b implied>', '</a>']],
    ['<a></z>x</a>', ['<a>', '"x"', '</a>']],
    ['<a>1 < 2</a>', ['<a>', '"1 "', '"<"', '" 2"', '</a>']],
    ['<a><b c=d>x</b></a>', ['<a>', '<b>', '"x"', '</b>', '</a>']],
    ['<a>x<!-- never closed </a>', ['<a>', '"x"', '</a implied>']],
    ['<a><![CDATA[<&>]]></a>', ['<a>', '"<&>"', '</a>']],
    ['junk<a/><b/>', ['"junk"', '<a>', '</a implied>', '<b>', '</b implied>']],
  ];
  for (const [src, want] of cases) assert.equal(events(src, true), want, src);
});

test('a strict reading refuses each of those the forgiving one lets by', () => {
  for (const src of ['<a><b>cut', '<a>x & y</a>', '<a>&nbsp;</a>', '<a><b></a>', '<a></z></a>', '<a>1 < 2</a>', '<a><b c=d/></a>', '<a><!-- x</a>', 'junk<a/>', '<a/><b/>'])
    assert.throws(() => events(src, false), (e: unknown) => e instanceof XmlSyntaxError, src);
});

test.run();

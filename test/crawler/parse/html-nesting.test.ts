import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Parser } from 'htmlparser2';
import { MAX_NESTING, NestingCappedParser } from '../../../crawler/parse/html-nesting.js';
import { extractHtml } from '../../../crawler/parse/html.js';

const OPTIONS = { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true };

/** Every event a parser emits, and the deepest nesting its handler saw. */
function events(html: string, capped: boolean): { log: string[]; deepest: number } {
  const log: string[] = [];
  let depth = 0;
  let deepest = 0;
  const cbs = {
    onopentag: (name: string, a: Record<string, string>) => {
      deepest = Math.max(deepest, ++depth);
      log.push(`<${name} ${JSON.stringify(a)}>`);
    },
    onclosetag: (name: string, implied: boolean) => {
      depth--;
      log.push(`</${name}${implied ? ' implied' : ''}>`);
    },
    ontext: (t: string) => log.push(t),
  };
  const p = capped ? new NestingCappedParser(cbs, OPTIONS) : new Parser(cbs, OPTIONS);
  p.end(html);
  return { log, deepest };
}

test('pages nested less than the cap: the same events as htmlparser2 itself', () => {
  const pages = [
    '<html><head><title>t</title></head><body><p>one<p>two<table><tr><td>x<td>y</table><ul><li>a<li>b</ul></body></html>',
    '<div><svg><foreignObject><p>in</p></foreignObject></svg><math><mi>x</mi></math><form><form><input></form></div>',
    '<a href="/x">x<img src=i alt=y><br></a></p></b><select><option>1<option>2</select>',
    `${'<div>'.repeat(MAX_NESTING - 1)}<br><img>deep${'</div>'.repeat(MAX_NESTING - 1)}`,
    `${'<section><span>'.repeat(MAX_NESTING / 2)}open to the end`,
  ];
  for (const html of pages) assert.equal(events(html, true), events(html, false), html.slice(0, 80));
});

test('deeper pages: the open elements never pass the cap; text, links and balanced events are kept', () => {
  const cases: [string, string][] = [
    [`${'<div>'.repeat(20_000)}bottom <a href="/b">b</a>${'</div>'.repeat(20_000)}`, 'bottom b'],
    [`${'<div><span>'.repeat(20_000)}bottom <a href="/b">b</a>`, 'bottom b'],
    [`${'<b><i>'.repeat(5_000)}${'</i></b>'.repeat(5_000)}<p>after <a href="/b">b</a></p>`, 'after b'],
  ];
  for (const [html, text] of cases) {
    const capped = events(html, true);
    assert.ok(capped.deepest <= MAX_NESTING, `deepest ${capped.deepest}`);
    assert.is(capped.log.filter((e) => e.startsWith('<') && !e.startsWith('</')).length, capped.log.filter((e) => e.startsWith('</')).length, 'every element closed');
    const x = extractHtml(html);
    assert.is(x.text, text);
    assert.equal(x.links.map((l) => l.href), ['/b']);
  }
  assert.ok(events(`${'<div>'.repeat(MAX_NESTING + 1)}x`, false).deepest > MAX_NESTING, 'htmlparser2 alone has no cap');
});

test.run();

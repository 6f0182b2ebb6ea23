import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Conf, DEFAULT_FILE } from '../../shared/conf.js';
import { HzError } from '../../shared/errors.js';
import { parseXml, XmlSyntaxError } from '../../shared/xml.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hz-conf-'));
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

function props(p: Record<string, string>): string {
  return `<?xml version="1.0"?>\n<configuration>\n${Object.entries(p)
    .map(([k, v]) => `<property><name>${k}</name><value>${v}</value></property>`)
    .join('\n')}\n</configuration>\n`;
}

/** A conf dir holding the given files. */
function confDir(name: string, files: Record<string, string>): string {
  const dir = path.join(tmp, name);
  fs.mkdirSync(dir, { recursive: true });
  for (const [f, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, f), text);
  return dir;
}

const P = 'urlnormalizer.loop.count';

test('layering: default → extra resource → site → -D', () => {
  // [case, files in the conf dir, use extra resource, -D value, expected value, expected source]
  const table: [string, Record<string, string>, boolean, string | undefined, string, RegExp][] = [
    ['default only', {}, false, undefined, '1', new RegExp(DEFAULT_FILE)],
    ['resource over default', { 'extra.xml': props({ [P]: '2' }) }, true, undefined, '2', /extra\.xml$/],
    ['resource not asked for', { 'extra.xml': props({ [P]: '2' }) }, false, undefined, '1', new RegExp(DEFAULT_FILE)],
    ['site over resource', { 'extra.xml': props({ [P]: '2' }), 'hazelnut-site.xml': props({ [P]: '3' }) }, true, undefined, '3', /hazelnut-site\.xml$/],
    ['-D over all', { 'extra.xml': props({ [P]: '2' }), 'hazelnut-site.xml': props({ [P]: '3' }) }, true, '4', '4', /^-D /],
    ['-D over default', {}, false, '5', '5', /^-D /],
  ];
  table.forEach(([name, files, extra, d, value, source], i) => {
    const conf = Conf.load({
      confDir: confDir(`layer${i}`, files),
      resources: extra ? ['extra.xml'] : [],
      overrides: d === undefined ? {} : { [P]: d },
    });
    assert.is(conf.get(P), value, name);
    assert.is(conf.getInt(P), Number(value), name);
    assert.match(conf.source(P), source, name);
  });
});

test('typed getters: values and errors naming property and file', () => {
  const dir = confDir('typed', { 'hazelnut-site.xml': props({ [P]: 'three', 'plugin.excludes': 'maybe', 'urlfilter.order': '5 fortnights' }) });
  const conf = Conf.load({ confDir: dir });
  const site = path.join(dir, 'hazelnut-site.xml');
  const errors: [() => unknown, RegExp][] = [
    [() => conf.getInt(P), new RegExp(`property ${P} in ${site} must be an integer, not "three"`)],
    [() => conf.getFloat(P), /must be a number, not "three"/],
    [() => conf.getBoolean('plugin.excludes'), /property plugin\.excludes in .*hazelnut-site\.xml must be true or false, not "maybe"/],
    [() => conf.getDuration('urlfilter.order', 's'), /property urlfilter\.order in .*hazelnut-site\.xml must be a duration/],
    [() => conf.get('no.such.property'), /property no\.such\.property is not declared in hazelnut-default\.xml/],
    [() => conf.with({ 'plugin.includes': '(' }).getRegex('plugin.includes'), /plugin\.includes .* must be a valid regular expression/],
  ];
  for (const [fn, re] of errors) {
    try {
      fn();
      assert.unreachable(String(re));
    } catch (e) {
      assert.instance(e, HzError);
      assert.is((e as HzError).code, 'HZ_ERR_CONF_PROPERTY');
      assert.match((e as Error).message, re);
    }
  }
  const ok = conf.with({ [P]: '12', 'plugin.excludes': 'TRUE' });
  assert.is(ok.getInt(P), 12);
  assert.is(ok.getBoolean('plugin.excludes'), true);
  assert.is(conf.get(P), 'three', 'original untouched by with()');
  const durations: [string, 'ms' | 's', number][] = [
    ['2592000', 's', 2_592_000_000],
    ['30d', 's', 2_592_000_000],
    ['1.5h', 'ms', 5_400_000],
    ['250', 'ms', 250],
    ['2 min', 's', 120_000],
  ];
  for (const [v, unit, ms] of durations) assert.is(conf.with({ [P]: v }).getDuration(P, unit), ms, v);
  assert.equal(conf.with({ [P]: ' a, b  c,,d ' }).getList(P), ['a', 'b', 'c', 'd']);
  assert.ok(conf.has('urlfilter.order'));
  assert.not.ok(conf.has('urlnormalizer.regex.file.outlink'));
});

test('XML that does not parse: error names file and line', () => {
  const table: [string, string, RegExp][] = [
    ['unclosed', '<configuration>\n<property>\n<name>a</name>\n</configuration>\n', /hazelnut-site\.xml:4: <\/configuration> closes <property> opened on line 2/],
    ['bare amp', '<configuration>\n<property><name>a</name>\n<value>x & y</value></property>\n</configuration>', /hazelnut-site\.xml:3: bare '&'/],
    ['entity on a later line of a text', '<configuration>\n<property><name>a</name><value>x\n\n&nbsp;</value></property>\n</configuration>', /hazelnut-site\.xml:4: unknown entity &nbsp;/],
    ['bad char ref', '<configuration><property><name>a</name><value>&#x110000;</value></property></configuration>', /hazelnut-site\.xml:1: invalid character reference/],
    ['wrong root', '<?xml version="1.0"?>\n\n<config/>', /hazelnut-site\.xml:3: root element must be <configuration>/],
    ['stray element', '<configuration>\n\n<prop/></configuration>', /hazelnut-site\.xml:3: unexpected <prop>/],
    ['no name', '<configuration>\n<property><value>1</value></property></configuration>', /hazelnut-site\.xml:2: <property> without a <name>/],
    ['two roots', '<configuration/>\n<configuration/>', /hazelnut-site\.xml:2: a second root element/],
    ['malformed tag', '<configuration>\n<property <name>a</name></property></configuration>', /hazelnut-site\.xml:2: malformed tag/],
  ];
  table.forEach(([name, xml, re], i) => {
    const dir = confDir(`xml${i}`, { 'hazelnut-site.xml': xml });
    try {
      Conf.load({ confDir: dir });
      assert.unreachable(name);
    } catch (e) {
      assert.instance(e, HzError, name);
      assert.is((e as HzError).code, 'HZ_ERR_CONF_XML', name);
      assert.match((e as Error).message, re, name);
      assert.ok((e as Error).message.startsWith(path.join(dir, 'hazelnut-site.xml')), name);
    }
  });
});

test('parseXml: entities, CDATA, comments and line numbers', () => {
  const root = parseXml('<?xml version="1.0"?>\n<!-- c -->\n<a x="1 &amp; 2">\n  <b>&lt;&#65;&#x42;&gt;</b>\n  <c><![CDATA[<raw&>]]></c>\n</a>');
  assert.is(root.name, 'a');
  assert.is(root.attrs.x, '1 & 2');
  assert.is(root.children[0]!.text, '<AB>');
  assert.is(root.children[0]!.line, 4);
  assert.is(root.children[1]!.text, '<raw&>');
  assert.throws(() => parseXml(''), (e: unknown) => e instanceof XmlSyntaxError && /no root/.test(e.message));
});

test('a missing conf dir is a clear error', () => {
  assert.throws(() => Conf.load({ confDir: path.join(tmp, 'nope') }), /configuration directory .*nope does not exist/);
});

test('the shipped default file declares descriptions for every property', () => {
  const conf = Conf.load({});
  for (const d of conf.declarations()) assert.ok(d.description.length > 10, `${d.name} has a description`);
});

test.run();

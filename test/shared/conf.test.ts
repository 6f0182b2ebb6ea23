import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Conf, DEFAULT_FILE, readConfText } from '../../shared/conf.js';
import { HzError } from '../../shared/errors.js';
import { RegexURLFilter } from '../../crawler/url/regex-filter.js';
import { readNormalizeRules } from '../../crawler/url/regex-normalize.js';
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

test('typed getters: values and errors naming the property and where it was set', () => {
  const conf = Conf.load({ confDir: confDir('typed', {}) }).with({ [P]: 'three', 'plugin.excludes': 'maybe', 'urlfilter.order': '5 fortnights' });
  const errors: [() => unknown, RegExp][] = [
    [() => conf.getInt(P), new RegExp(`property ${P} in set must be an integer, not "three"`)],
    [() => conf.getFloat(P), /must be a number, not "three"/],
    [() => conf.getBoolean('plugin.excludes'), /property plugin\.excludes in set must be true or false, not "maybe"/],
    [() => conf.getDuration('urlfilter.order', 's'), /property urlfilter\.order in set must be a duration/],
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

test('parseXml refuses what XML refuses, on its line; a tag of any length reads', () => {
  // [document, line and message of the error; null: it parses]
  const cases: [string, string | null][] = [
    ['<a>\nx < y</a>', '2: malformed tag'],
    ['<a x=1/>', '1: malformed tag'],
    ['<a\n x/>', '1: malformed tag'],
    ['<a/ >', '1: malformed tag'],
    ['<1a/>', '1: malformed tag'],
    ['<a>\n<!-- never ended</a>', '2: unterminated comment'],
    ['<a><![CDATA[x</a>', '1: unterminated CDATA section'],
    ['<!DOCTYPE a<a/>', '1: no root element'],
    ['<a/>\n\ntext', '3: text outside the root element'],
    ['<a/>\n<b/>', '2: a second root element'],
    ['<a>\n</b>', '2: </b> closes <a> opened on line 1'],
    ['</a>', '1: closing tag </a> without an opening tag'],
    ['<a>\n<b>\n', '3: <b> opened on line 2 is never closed'],
    ['\uFEFF<a b="&lt;" c=\'2\'/>', null],
    [`<a>${'<b ' + 'c="1" '.repeat(800) + '/>'}</a>`, null],
  ];
  for (const [src, want] of cases) {
    let got: string | null = null;
    try {
      parseXml(src);
    } catch (e) {
      assert.ok(e instanceof XmlSyntaxError, src);
      got = `${e.line}: ${e.message}`;
    }
    assert.is(got, want, src.slice(0, 40));
  }
});

test('a missing conf dir is a clear error', () => {
  assert.throws(() => Conf.load({ confDir: path.join(tmp, 'nope') }), /configuration directory .*nope does not exist/);
});

test('the shipped default file declares descriptions for every property', () => {
  const conf = Conf.load({});
  for (const d of conf.declarations()) assert.ok(d.description.length > 10, `${d.name} has a description`);
});

test('a misspelt name or a value of the wrong type is refused at load, with the file and line or the -D, and a near name', () => {
  assert.is(Conf.load({ confDir: confDir('d', {}), overrides: { 'webdb.url': 'postgresql://crawler@db-host/hazelnut' } }).get('webdb.url'), 'postgresql://crawler@db-host/hazelnut');
  const site = (name: string, p: Record<string, string>) => {
    const dir = confDir(name, { 'hazelnut-site.xml': props(p) });
    return { dir, file: path.join(dir, 'hazelnut-site.xml') };
  };
  const typo = site('typo', { 'http.agent.name': 'Bot', 'fetcher.threads.fetsh': '4' });
  const wrongType = site('wrong', { 'fetcher.threads.fetch': 'ten' });
  const far = site('far', { 'completely.unrelated.thing': '1' });
  // [case, load, message]
  const table: [string, () => Conf, string | RegExp][] = [
    ['site file typo', () => Conf.load({ confDir: typo.dir }), `${typo.file}:4: unknown property fetcher.threads.fetsh; did you mean fetcher.threads.fetch?`],
    ['-D typo', () => Conf.load({ confDir: confDir('d', {}), overrides: { 'http.agent.nmae': 'Bot' } }), '-D http.agent.nmae: unknown property http.agent.nmae; did you mean http.agent.name?'],
    ['nothing near', () => Conf.load({ confDir: far.dir }), `${far.file}:3: unknown property completely.unrelated.thing (hazelnut-default.xml and the active plugins declare every property)`],
    ['site file type', () => Conf.load({ confDir: wrongType.dir }), `${wrongType.file}:3: property fetcher.threads.fetch must be an integer, not "ten"`],
    ['-D type', () => Conf.load({ confDir: confDir('d', {}), overrides: { 'fetcher.parse': 'yes' } }), '-D fetcher.parse: property fetcher.parse must be true or false, not "yes"'],
    ['-D duration', () => Conf.load({ confDir: confDir('d', {}), overrides: { 'http.timeout': '10 sec' } }), /^-D http\.timeout: property http\.timeout must be a duration/],
    [
      '-D webdb.url',
      () => Conf.load({ confDir: confDir('d', {}), overrides: { 'webdb.url': 'crawl/webdb' } }),
      '-D webdb.url: property webdb.url must be empty or a postgresql://user@host:port/db URL, not "crawl/webdb"',
    ],
  ];
  for (const [name, load, message] of table) {
    try {
      load();
      assert.unreachable(name);
    } catch (e) {
      assert.instance(e, HzError, name);
      assert.is((e as HzError).code, 'HZ_ERR_CONF_PROPERTY', name);
      if (typeof message === 'string') assert.is((e as Error).message, message, name);
      else assert.match((e as Error).message, message, name);
    }
  }
  // A scoped name of a declared property and a well-typed value load.
  const ok = Conf.load({ confDir: confDir('d', {}), overrides: { 'urlnormalizer.regex.file.inject': 'x.xml', 'fetcher.threads.fetch': '12', 'http.timeout': '10s' } });
  assert.is(ok.getInt('fetcher.threads.fetch'), 12);
});

test('a configuration file that cannot be read: HZ_ERR_CONF_FILE naming what it is and the file', () => {
  const gone = path.join(os.tmpdir(), 'hz-no-such-dir', 'rules.txt');
  const table: [() => unknown, RegExp][] = [
    [() => readConfText(gone), /^cannot read \/.*rules\.txt: ENOENT/],
    [() => RegexURLFilter.fromFile(gone), /^cannot read URL filter rules \/.*rules\.txt: ENOENT/],
    [() => readNormalizeRules(gone), /^cannot read URL normalizer rules \/.*rules\.txt: ENOENT/],
  ];
  for (const [read, message] of table) {
    const e = (() => {
      try {
        read();
      } catch (err) {
        return err as HzError;
      }
      return undefined;
    })();
    assert.instance(e, HzError);
    assert.is(e!.code, 'HZ_ERR_CONF_FILE');
    assert.match(e!.message, message);
  }
});

test.run();

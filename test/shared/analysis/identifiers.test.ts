import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Analyzer } from '../../../shared/analysis/analyzer.js';
import { identifierWords, isIdentifier } from '../../../shared/analysis/identifiers.js';

const stem = new Analyzer({ stemEnglish: true });
/** Terms, a part of an identifier marked with a trailing `*`. */
const marked = (text: string) => stem.tokens(text).map((t) => (t.part ? `${t.term}*` : t.term));

const CASES: [string, string, string[]][] = [
  ['snake_case: whole, never stemmed, then its words stemmed', 'with_for_update', ['with_for_update', 'with*', 'for*', 'updat*']],
  ['upper snake case folds', 'TARGET_FILE_DIR', ['target_file_dir', 'target*', 'file*', 'dir*']],
  ['dotted name with camelCase and snake_case inside', 'flask.Flask.before_request', ['flask.flask.before_request', 'flask*', 'flask*', 'before_request*', 'befor*', 'request*']],
  ['a setting and its value, each a name of its own', 'NODE_OPTIONS=max_old', ['node_options=max_old', 'node_options*', 'node*', 'option*', 'max_old*', 'max*', 'old*']],
  ['a setting before an option', 'NODE_OPTIONS=--inspect', ['node_options', 'node*', 'option*', '--inspect', 'inspect*']],
  ['call parentheses are not part of the name', 'os.path.join()', ['os.path.join', 'os*', 'path*', 'join*']],
  ['key=value', 'load=False', ['load=false', 'load*', 'fals*']],
  ['long option after a command', 'git push --force-with-lease', ['git', 'push', '--force-with-lease', 'forc*', 'with*', 'leas*']],
  ['dunder names', '__init__ method', ['__init__', 'init*', 'method']],
  ['a sentence end is not a dot in a name', 'the end. Next', ['the', 'end', 'next']],
  ['decimal numbers stay numbers', 'version 3.14', ['version', '3.14']],
  ['a version with letters is a name', 'v1.2', ['v1.2', 'v1*', '2*']],
  ['apostrophes keep a word whole', "don't", ['dont']],
  ['a hyphen inside prose still splits, a one-letter prefix joins', 'read-only e-mail', ['read', 'onli', 'email']],
  ['a lone underscore is no word', '_ x', ['x']],
  ['two hyphens inside a word are no option', 'x--y', ['x', 'y']],
];

for (const [name, input, want] of CASES)
  test(`identifiers: ${name}`, () => {
    assert.equal(marked(input), want);
  });

test('identifiers: what counts as one, and its words', () => {
  const table: [string, boolean, string[]][] = [
    ['pg_dump', true, ['pg', 'dump']],
    ['www.apache.org', true, ['www', 'apache', 'org']],
    ['--no-verify', true, ['no', 'verify']],
    ['__init__.py', true, ['__init__', 'py']],
    ['a.b_c=d', true, ['a.b_c', 'd']],
    ['a=b', true, ['a', 'b']],
    ['3.14', false, ['3', '14']],
    ['1,000', false, ['1,000']],
    ["don't", false, ["don't"]],
  ];
  for (const [token, is, words] of table) {
    assert.is(isIdentifier(token), is, token);
    assert.equal(identifierWords(token), words, token);
  }
});

test.run();

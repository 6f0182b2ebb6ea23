/** Site names: a home page title said once. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { onceOnly } from '../../searcher/sites.js';

const CASES: [title: string, name: string][] = [
  ['Kestrel Handbook — Kestrel Handbook', 'Kestrel Handbook'],
  ['Relay Documentation | relay documentation', 'Relay Documentation'],
  ['SQLite Home Page', 'SQLite Home Page'],
  ['Guides — Relay Documentation', 'Guides — Relay Documentation'],
  ['git(1)', 'git(1)'],
];
test('a title repeating itself around a separator is said once', () => {
  for (const [title, name] of CASES) assert.is(onceOnly(title), name, title);
});

test.run();

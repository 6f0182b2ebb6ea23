/**
 * A plugin's property declarations: what is accepted, and the message for
 * each mistake (named with the plugin and its module).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { pluginPropertyDecls } from '../../../shared/plugin/properties.js';
import type { PluginDescriptor } from '../../../shared/plugin/extension-points.js';

const taken = (name: string) => (name === 'fetcher.threads.fetch' ? 'hazelnut-default.xml' : undefined);
const plugin = (properties: unknown) => ({ id: 'p', point: 'url-filter', description: '', properties, create: () => null }) as unknown as PluginDescriptor;

test('declarations accepted: typed, string by default, descriptions folded', () => {
  const decls = pluginPropertyDecls(
    plugin([
      { name: 'p.limit', type: 'int', default: '3', description: 'How\n   many.' },
      { name: 'p.note', default: 'x', description: 'Free text.' },
      { name: 'p.wait', type: 'duration', default: '2s', description: 'A pause.' },
    ]),
    '/plugins/p.mjs',
    taken,
  );
  assert.equal(
    decls.map((d) => [d.name, d.type, d.value, d.description, d.plugin]),
    [
      ['p.limit', 'int', '3', 'How many.', { id: 'p', source: '/plugins/p.mjs' }],
      ['p.note', undefined, 'x', 'Free text.', { id: 'p', source: '/plugins/p.mjs' }],
      ['p.wait', 'duration', '2s', 'A pause.', { id: 'p', source: '/plugins/p.mjs' }],
    ],
  );
  assert.equal(pluginPropertyDecls(plugin(undefined), '/plugins/p.mjs', taken), []);
});

test('declarations refused, each with the plugin and its module', () => {
  for (const [properties, why] of [
    [{ name: 'p.x', default: '' }, 'properties must be an array'],
    [[{ name: 'p x', default: '' }], 'a property has no valid name'],
    [[{ default: '' }], 'a property has no valid name'],
    [[{ name: 'p.x', type: 'integer', default: '1' }], 'property p.x: type must be one of string, int, float, boolean, duration, regex, not "integer"'],
    [[{ name: 'p.x', type: 'int', default: 'many' }], 'property p.x: default "many" is not of type int'],
    [[{ name: 'p.x', type: 'regex', default: '(' }], 'property p.x: default "(" is not of type regex'],
    [[{ name: 'p.x', default: 3 }], 'property p.x: default must be a string'],
    [[{ name: 'fetcher.threads.fetch', default: '1' }], 'property fetcher.threads.fetch is already declared by hazelnut-default.xml'],
  ] as const) {
    try {
      pluginPropertyDecls(plugin(properties), '/plugins/p.mjs', taken);
      assert.unreachable(why);
    } catch (e) {
      assert.ok((e as Error).message.startsWith('plugin module /plugins/p.mjs: plugin p: '), (e as Error).message);
      assert.ok((e as Error).message.includes(why), `${(e as Error).message} says ${why}`);
    }
  }
});

test.run();

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Lru } from '../../../shared/index/lru.js';

test('lru: over its budget the least recently used go first; a key set again weighs once', () => {
  const lru = new Lru<string, number>(10, (v) => v);
  lru.set('a', 4);
  lru.set('b', 4);
  lru.get('a');
  lru.set('b', 4);
  lru.set('b', 4);
  assert.is(lru.get('a'), 4, 'a key set again does not push the others out');
  lru.set('c', 4);
  assert.is(lru.get('b'), undefined, 'the least recently used goes');
  assert.is(lru.get('a'), 4);
  assert.is(lru.get('c'), 4);
  lru.set('d', 50);
  assert.is(lru.get('d'), 50, 'one value over the budget is kept alone');
  assert.is(lru.get('a'), undefined);
});

test.run();

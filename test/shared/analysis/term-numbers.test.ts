import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { NumberList } from '../../../shared/analysis/term-numbers.js';

test('pushFirst appends the first numbers of an array after those pushed, growing past the room it had', () => {
  const list = new NumberList();
  list.push(7);
  const content = Uint32Array.from({ length: 5000 }, (_, i) => i * 3);
  list.pushFirst(content, 4000);
  list.pushFirst(Uint32Array.of(1, 2), 2);
  assert.is(list.length, 4003);
  assert.equal([...list.array.subarray(0, 4)], [7, 0, 3, 6]);
  assert.equal([...list.array.subarray(3999, 4003)], [3 * 3998, 3 * 3999, 1, 2]);
});

test.run();

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lazyFields } from './lazy-fields';

test('a field is made on its first read, once, from its own object arguments', () => {
  const made: string[] = [];
  const reader = lazyFields<{ name: string }>()({
    greeting: ({ name }) => (made.push(`greeting:${name}`), `hello ${name}`),
    shout: ({ name }) => (made.push(`shout:${name}`), name.toUpperCase()),
  });
  const ann = reader({ name: 'ann' });
  const bob = reader({ name: 'bob' });
  assert.deepEqual(made, [], 'nothing is made up front');
  assert.equal(ann.greeting, 'hello ann');
  assert.equal(ann.greeting, 'hello ann');
  assert.equal(bob.greeting, 'hello bob');
  assert.equal(ann.name, 'ann', 'the arguments are fields too');
  assert.deepEqual(made, ['greeting:ann', 'greeting:bob'], 'made once per object, never shared');
});

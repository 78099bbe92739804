/** A cache hit's stored bytes reach the response as they are, and read the same as parsed JSON. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StoredJson, storedResult, stringifyResult } from './stored-json';

const body = JSON.stringify({ data: { account: { fullName: 'Ada "A" Lovelace', tags: ['x', null] } } });

test('a stored body is answered with its bytes, exactly as the default serialisation would', () => {
  const result = storedResult(body);
  assert.ok(result.data instanceof StoredJson);
  assert.equal(stringifyResult(result), `${body}\n`);
  assert.equal(stringifyResult(result), `${JSON.stringify(JSON.parse(body))}\n`);
});

test('errors and extensions around stored data keep the order errors, data, extensions', () => {
  const result = {
    errors: [{ message: 'late' }],
    ...storedResult(body),
    extensions: { note: 1 },
  };
  const expected = { errors: result.errors, data: JSON.parse(body).data, extensions: result.extensions };
  assert.equal(stringifyResult(result), `${JSON.stringify(expected)}\n`);
});

test('anything else is serialised as by default; StoredJson serialises as its value anywhere', () => {
  const plain = { data: { a: 1 } };
  assert.equal(stringifyResult(plain), `${JSON.stringify(plain)}\n`);
  assert.equal(JSON.stringify(storedResult(body)), body);
  assert.deepEqual(storedResult('{"errors":[]}'), { errors: [] });
});

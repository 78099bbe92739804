import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildSchema, getIntrospectionQuery, parse } from 'graphql';
import { checkDocumentLimits, DEFAULT_QUERY_LIMITS } from './limits';

const schema = buildSchema(`
  type Query { devices(pageSize: Int): DevicePage }
  type DevicePage { list: [Device] }
  type Device { id: ID }
`);
const check = (query: string) =>
  checkDocumentLimits({ schema, document: parse(query), limits: DEFAULT_QUERY_LIMITS })?.extensions;

test('introspection roots are counted, through fragments too; the standard IntrospectionQuery passes', () => {
  assert.equal(check(getIntrospectionQuery({ descriptions: true })), undefined);
  assert.equal(check('{ a: __schema { queryType { name } } b: __type(name: "Device") { name } }'), undefined);
  const bomb = `{ ${Array.from({ length: 4 }, (_, i) => `s${i}: __schema { types { name } }`).join(' ')} }`;
  assert.deepEqual(check(bomb), {
    code: 'QUERY_TOO_COMPLEX',
    rule: 'introspection',
    limit: 3,
    measured: 4,
    http: { status: 400 },
  });
  const viaFragments =
    '{ ...F a: devices { ...G } } fragment F on Query { x: __schema { types { name } } y: __schema { types { name } } } fragment G on DevicePage { list { id } }';
  assert.equal(check(viaFragments), undefined, 'two roots through a fragment');
  const spread =
    '{ ...F ...F } fragment F on Query { x: __schema { types { name } } y: __schema { types { name } } }';
  assert.equal(check(spread)?.rule, 'introspection', 'a fragment counts once per spread');
});

test('every operation of a document is checked', () => {
  const query =
    'query A { devices(pageSize: 5) { list { id } } } query B { devices(pageSize: 500000) { list { id } } }';
  assert.equal(check(query)?.rule, 'cost');
});

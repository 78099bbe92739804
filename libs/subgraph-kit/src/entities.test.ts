/**
 * `_entities` representations this subgraph cannot resolve are BAD_USER_INPUT (entities.ts): the
 * key sets read from the type definitions, then through HTTP on a real subgraph app.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { parse } from 'graphql';
import { checkRepresentations, entityKeys } from './entities';
import { startTestSubgraph, type TestSubgraph } from './testing/test-subgraph';

describe('entityKeys', () => {
  test('reads every @key of definitions and extensions, as top-level field names', () => {
    const keys = entityKeys(
      parse(`type A @key(fields: "id") @key(fields: "sku region { code }") { id: ID! }
             extend type B @key(fields: "id", resolvable: false) { id: ID! }
             type C { id: ID! }`),
    );
    assert.deepEqual(
      [...keys],
      [
        ['A', [['id'], ['sku', 'region']]],
        ['B', [['id']]],
      ],
    );
  });

  test('a representation with any one complete key passes; the first bad one is named', () => {
    const keys = entityKeys(parse('type A @key(fields: "id") @key(fields: "sku region") { id: ID! }'));
    checkRepresentations(
      [
        { __typename: 'A', id: 1 },
        { __typename: 'A', sku: 's', region: 'r' },
      ],
      keys,
    );
    assert.throws(
      () =>
        checkRepresentations(
          [
            { __typename: 'A', id: 1 },
            { __typename: 'A', sku: 's' },
          ],
          keys,
        ),
      (error: Error & { extensions?: Record<string, unknown> }) =>
        /^representations\[1\] lacks the key of A: id or sku region\.$/.test(error.message) &&
        error.extensions?.code === 'BAD_USER_INPUT' &&
        error.extensions?.index === 1,
    );
  });
});

describe('_entities through HTTP', () => {
  let s: TestSubgraph;
  before(async () => {
    s = await startTestSubgraph('subgraph_kit_entities');
  });
  after(() => s.close());

  const entities =
    'query($r: [_Any!]!) { _entities(representations: $r) { __typename ... on Item { id name } } }';

  /** One BAD_USER_INPUT error saying `says`, no data, never an internal error. */
  async function refused(representations: unknown, says: RegExp) {
    const res = await s.query(entities, { r: representations });
    assert.equal(res.errors?.length, 1, JSON.stringify(res));
    const error = res.errors![0]!;
    assert.equal(error.extensions?.code, 'BAD_USER_INPUT', JSON.stringify(error));
    assert.equal(error.extensions?.argument, 'representations');
    assert.match(error.message, says);
    assert.equal(res.data?._entities ?? null, null);
  }

  test('known entities still resolve, and a stub answers its representation', async () => {
    const res = await s.query(entities, {
      r: [
        { __typename: 'Item', id: 'i2' },
        { __typename: 'Owner', id: 'o1' },
      ],
    });
    assert.equal(res.errors, undefined, JSON.stringify(res.errors));
    assert.deepEqual(res.data._entities, [
      { __typename: 'Item', id: 'i2', name: 'Item 2' },
      { __typename: 'Owner' },
    ]);
  });

  test('a __typename that is no entity of this subgraph is BAD_USER_INPUT naming the entities', async () => {
    for (const typename of ['Nope', 'Query', '__proto__', 'constructor', 'toString', 123, null])
      await refused([{ __typename: typename, id: 'x' }], /is not an entity of this subgraph \(Item, Owner\)/);
    await refused([{ id: 'x' }], /has __typename null/);
  });

  test('a representation that is not an object is BAD_USER_INPUT', async () => {
    for (const value of ['string', 1, [[]], [{ __typename: 'Item', id: 'i1' }, 'x']])
      await refused(value, /is not an object with __typename/);
  });

  test('a representation without its key is BAD_USER_INPUT, for a stub too', async () => {
    await refused([{ __typename: 'Owner' }], /^representations\[0\] lacks the key of Owner: id\.$/);
    await refused(
      [
        { __typename: 'Item', id: 'i1' },
        { __typename: 'Item', id: null },
      ],
      /^representations\[1\]/,
    );
  });
});

/**
 * A token whose `user.uid` is not a UUID (the spec says it is one; a foreign or test issuer may
 * send anything) names no account: every subgraph answers it as a caller who sees nothing, never
 * INTERNAL_SERVER_ERROR. Each root field that takes no required argument is asked.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  getNamedType,
  isLeafType,
  isNonNullType,
  isObjectType,
  type GraphQLField,
  buildClientSchema,
  getIntrospectionQuery,
} from 'graphql';
import { loadSubgraphManifests } from './registry';
import { startSubgraphHarness, type SubgraphHarness } from '@fleetgraph/subgraph-kit/testing';

const manifests = await loadSubgraphManifests();

/** `{ field { __typename } }` (or the bare leaf) for a root field without required arguments. */
function askFor(field: GraphQLField<unknown, unknown>): string | undefined {
  if (field.name.startsWith('_')) return undefined;
  if (field.args.some((arg) => isNonNullType(arg.type) && arg.defaultValue === undefined)) return undefined;
  const type = getNamedType(field.type);
  if (isLeafType(type)) return `{ ${field.name} }`;
  // a paged answer: ask its list too, so the rows are loaded
  if (isObjectType(type) && type.getFields().list)
    return `{ ${field.name} { __typename list { __typename } } }`;
  return `{ ${field.name} { __typename } }`;
}

for (const manifest of manifests) {
  describe(`${manifest.name}: a token with a uid that is not a UUID`, () => {
    let harness: SubgraphHarness;
    before(async () => {
      harness = await startSubgraphHarness(manifest, { label: `${manifest.name}-uid` });
    });
    after(() => harness?.close());

    test('is answered without INTERNAL_SERVER_ERROR on every argument-free root field', async () => {
      const stranger = harness.as({ uid: 'not-a-uuid', email: 'stranger@example.test' });
      const introspected = await stranger(getIntrospectionQuery());
      assert.equal(introspected.errors, undefined);
      const schema = buildClientSchema(introspected.data);
      const queries = Object.values(schema.getQueryType()?.getFields() ?? {}).flatMap(
        (field) => askFor(field) ?? [],
      );
      assert.ok(queries.length > 0, 'the subgraph has root fields to ask');
      const failures: string[] = [];
      for (const query of queries) {
        const response = await stranger(query);
        const codes = (response.errors ?? []).map((e: any) => e.extensions?.code);
        if (!response.data || response.status >= 500 || codes.includes('INTERNAL_SERVER_ERROR'))
          failures.push(`${query} → ${response.status} ${JSON.stringify(response.errors)}`);
      }
      assert.deepEqual(failures, []);
    });
  });
}

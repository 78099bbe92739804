import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Kind } from 'graphql';
import { loadTypeDefs } from '@fleetgraph/subgraph-kit';
import manifest from '../manifest';
import * as enums from './enums';

/** Every enum of fleet-core's schema (its own SDL and the shared definitions it uses): name -> values. */
const schemaEnums = new Map(
  loadTypeDefs(manifest.schemaDir).definitions.flatMap((d) =>
    d.kind === Kind.ENUM_TYPE_DEFINITION ? [[d.name.value, (d.values ?? []).map((v) => v.name.value)]] : [],
  ),
);

test('every value list of demo/enums.ts is exactly an enum of the fleet-core schema', () => {
  const lists = Object.entries(enums as Record<string, unknown>).filter(
    (entry): entry is [string, readonly string[]] => Array.isArray(entry[1]),
  );
  assert.ok(lists.length >= 9, `found ${lists.length} lists`);
  for (const [name, values] of lists) {
    const same = [...schemaEnums].filter(
      ([, schemaValues]) =>
        schemaValues.length === values.length &&
        [...values].sort().join() === [...schemaValues].sort().join(),
    );
    assert.ok(same.length > 0, `${name} (${values.join(', ')}) matches no enum of the schema`);
  }
});

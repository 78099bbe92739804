import { test } from 'node:test';
import assert from 'node:assert/strict';
import { schemaEnums } from '@fleetgraph/subgraph-kit';
import manifest from '../manifest';
import * as enums from './enums';

/**
 * Shared enums name values fleet-core never records: a vehicle's energy is never NONE (that is a
 * mobility purchase of no energy) and no demo vehicle is flex-fuel.
 */
const NOT_RECORDED: Record<string, readonly string[]> = { EnergyType: ['NONE', 'ETHANOL'] };

test('every value list of demo/enums.ts is exactly an enum of the fleet-core schema', () => {
  const schema = [...schemaEnums(manifest.schemaDir)].map(([name, values]) =>
    values
      .filter((value) => !NOT_RECORDED[name]?.includes(value))
      .sort()
      .join(),
  );
  const lists = Object.entries(enums as Record<string, unknown>).filter(
    (entry): entry is [string, readonly string[]] => Array.isArray(entry[1]),
  );
  assert.ok(lists.length >= 9, `found ${lists.length} lists`);
  for (const [name, values] of lists)
    assert.ok(
      schema.includes([...values].sort().join()),
      `${name} (${values.join(', ')}) matches no enum of the schema`,
    );
});

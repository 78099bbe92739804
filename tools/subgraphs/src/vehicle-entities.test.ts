/**
 * Entity batches: every subgraph that resolves Vehicle references (fleet-core, which owns it, and
 * each one adding fields to it) answers a page of references with the same number of SQL
 * statements for 10, 50 and 200 vehicles, selecting every Vehicle field it serves that needs no
 * argument (objects one level down, nested pages of 2). The Vehicle fields come from each
 * subgraph's own schema, so a field added later is counted without touching this file.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  buildClientSchema,
  getIntrospectionQuery,
  getNamedType,
  isLeafType,
  isNonNullType,
  isObjectType,
  type GraphQLField,
  type GraphQLObjectType,
} from 'graphql';
import { startSubgraphHarness, type SubgraphHarness } from '@fleetgraph/subgraph-kit/testing';
import { loadSubgraphManifests } from './registry';

const SIZES = [10, 50, 200];
const vid = (n: number) => `e2000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
const manifests = await loadSubgraphManifests();

type AnyField = GraphQLField<unknown, unknown>;
const needsArgs = (f: AnyField) => f.args.some((a) => isNonNullType(a.type) && a.defaultValue === undefined);
const argsOf = (f: AnyField) => (f.args.some((a) => a.name === 'pageSize') ? '(pageSize: 2)' : '');

function leaves(type: GraphQLObjectType): string {
  const names = Object.values(type.getFields())
    .filter((f) => !needsArgs(f) && isLeafType(getNamedType(f.type)))
    .map((f) => f.name);
  return ['__typename', ...names].join(' ');
}

/** Every Vehicle field needing no argument: leaves, objects with their leaves, pages of 2. */
function vehicleSelection(vehicle: GraphQLObjectType): string {
  const parts: string[] = [];
  for (const field of Object.values(vehicle.getFields())) {
    if (needsArgs(field)) continue;
    const type = getNamedType(field.type);
    if (isLeafType(type)) parts.push(field.name);
    else if (isObjectType(type) && type.getFields().list) {
      const element = getNamedType(type.getFields().list!.type);
      parts.push(
        `${field.name}${argsOf(field)} { next list { ${isObjectType(element) ? leaves(element) : '__typename'} } }`,
      );
    } else if (isObjectType(type)) parts.push(`${field.name}${argsOf(field)} { ${leaves(type)} }`);
    else parts.push(`${field.name} { __typename }`);
  }
  return parts.join(' ');
}

for (const manifest of manifests) {
  describe(`${manifest.name}: a page of Vehicle references`, () => {
    let h: SubgraphHarness;
    let alice: { uid: string; email: string };
    before(async () => {
      h = await startSubgraphHarness(manifest, {
        label: `${manifest.name}-vehicle-batch`,
        seed: async (knex, facts) => {
          let fleet = facts['fleet-core'];
          if (!fleet && manifest.testFixture) {
            const own = await manifest.testFixture();
            await own.load(knex);
            fleet = own.facts;
          }
          if (!fleet) return;
          alice = fleet.alice;
          await knex('fleet.vehicles').insert(
            Array.from({ length: Math.max(...SIZES) }, (_, i) => ({
              id: vid(i + 1),
              organization_id: fleet.orgA,
              vin: `VF1BATCH${String(i).padStart(9, '0')}`,
              plate: `BT-${i}`,
              vehicle_type: 'VAN',
              fuel_type: 'DIESEL',
              odometer_km: 1000 * i,
            })),
          );
          await knex('fleet.group_vehicles').insert(
            Array.from({ length: Math.max(...SIZES) }, (_, i) => ({
              group_id: fleet.groups.depot,
              vehicle_id: vid(i + 1),
            })),
          );
        },
      });
    });
    after(() => h?.close());

    test('the same statements for 10, 50 and 200 vehicles', async (t) => {
      if (!alice) return t.skip('no fleet-core fixture');
      const as = h.as(alice);
      const schema = buildClientSchema((await as(getIntrospectionQuery())).data);
      const vehicle = schema.getType('Vehicle');
      if (!isObjectType(vehicle) || !schema.getQueryType()?.getFields()._entities)
        return t.skip('does not resolve Vehicle references');
      const query = `query($r: [_Any!]!) { _entities(representations: $r) { ... on Vehicle { ${vehicleSelection(vehicle)} } } }`;
      const counts: number[] = [];
      for (const size of SIZES) {
        const representations = Array.from({ length: size }, (_, i) => ({
          __typename: 'Vehicle',
          id: vid(i + 1),
        }));
        await as(query, { r: representations }); // warm: per-process caches (scopes, plans)
        h.statements.reset();
        const res = await as(query, { r: representations });
        counts.push(h.statements.count);
        assert.equal(res.errors, undefined, JSON.stringify(res.errors)?.slice(0, 500));
        assert.equal(res.data._entities.length, size);
        assert.ok(
          res.data._entities.every((v: unknown) => v !== null),
          'every generated vehicle is visible to alice',
        );
      }
      assert.deepEqual(
        counts,
        SIZES.map(() => counts[0]),
        `statements per page of ${SIZES.join(', ')}: ${counts.join(', ')}`,
      );
    });
  });
}

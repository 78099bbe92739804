/**
 * Every maintenance query and field through the subgraph, isolation (carol vs Acme, bob vs South)
 * including `_entities`, and bad input with its code.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSubgraphHarness, type SubgraphHarness } from '@fleetgraph/subgraph-kit/testing';
import manifest from './manifest';
import { M, NOW, seedMaintenanceFixture } from './testing/fixture';

let h: SubgraphHarness;
let F: any;
before(async () => {
  h = await startSubgraphHarness(manifest, {
    label: 'maintenance-queries',
    env: { MAINTENANCE_NOW: NOW },
    seed: (knex, facts) => seedMaintenanceFixture(knex, facts['fleet-core']),
  });
  F = h.facts['fleet-core'];
});
after(() => h?.close());

async function ok(user: any, query: string, variables: Record<string, unknown> = {}) {
  const res = await h.as(user)(query, variables);
  assert.equal(res.errors, undefined, JSON.stringify(res.errors));
  assert.ok(res.data);
  return res.data;
}

async function fails(user: any, query: string, code: string, variables: Record<string, unknown> = {}) {
  const res = await h.as(user)(query, variables);
  assert.ok(res.errors?.length, `expected ${code}`);
  const error = res.errors[0]!;
  assert.equal(error.extensions?.code, code, JSON.stringify(res.errors));
  return error;
}

const THRESHOLD =
  'id code criticality remainingDistance remainingDuration description organizationId inForce';

test('maintenanceCriticalityThreshold: the most critical threshold in force for the organization', async () => {
  const acme = await ok(F.alice, `{ maintenanceCriticalityThreshold { ${THRESHOLD} } }`);
  assert.deepEqual(acme.maintenanceCriticalityThreshold, {
    id: '7e500000-0000-4000-8000-000000000003',
    code: 'OVERDUE',
    criticality: 3,
    remainingDistance: 0,
    remainingDuration: 0,
    description: 'Overdue: the distance or the date deadline is reached or passed.',
    organizationId: null,
    inForce: true,
  });
  const globex = await ok(
    F.carol,
    `{ maintenanceCriticalityThreshold { id code criticality inForce organizationId } }`,
  );
  assert.deepEqual(globex.maintenanceCriticalityThreshold, {
    id: M.thresholds.globexUrgent,
    code: 'URGENT',
    criticality: 5,
    inForce: true,
    organizationId: F.orgB,
  });
});

test('maintenanceCriticalityThresholds: global defaults and the organization own, paged', async () => {
  const acme = await ok(F.alice, `{ maintenanceCriticalityThresholds { count next list { ${THRESHOLD} } } }`);
  assert.equal(acme.maintenanceCriticalityThresholds.count, 3);
  assert.deepEqual(
    acme.maintenanceCriticalityThresholds.list.map((t: any) => [t.code, t.criticality, t.inForce]),
    [
      ['OVERDUE', 3, true],
      ['DUE_SOON', 2, true],
      ['PLANNED', 1, true],
    ],
  );
  const due = acme.maintenanceCriticalityThresholds.list[1];
  assert.equal(due.remainingDistance, 1000);
  assert.equal(due.remainingDuration, 14);
  const globex = await ok(
    F.carol,
    `{ maintenanceCriticalityThresholds(pageSize: 2) { count next list { code inForce } } }`,
  );
  assert.equal(globex.maintenanceCriticalityThresholds.count, 5);
  assert.deepEqual(globex.maintenanceCriticalityThresholds.list, [
    { code: 'URGENT', inForce: true },
    { code: 'OVERDUE', inForce: false },
  ]);
  const next = await ok(
    F.carol,
    `query($p: ID) { maintenanceCriticalityThresholds(pageId: $p) { next list { code inForce } } }`,
    { p: globex.maintenanceCriticalityThresholds.next },
  );
  assert.deepEqual(
    next.maintenanceCriticalityThresholds.list.map((t: any) => t.code),
    ['DUE_SOON', 'NORMAL'],
  );
});

test('maintenanceTemplate and maintenanceTemplates: global and own organization only', async () => {
  const t = await ok(
    F.alice,
    `query($id: ID!) { maintenanceTemplate(id: $id) { id description system fromExternalService organizationId
      interval { distanceKm months days } vehicleTypes fuelTypes } }`,
    { id: M.templates.inspection },
  );
  assert.deepEqual(t.maintenanceTemplate, {
    id: M.templates.inspection,
    description: 'Annual inspection',
    system: 'INSPECTION',
    fromExternalService: true,
    organizationId: F.orgA,
    interval: { distanceKm: null, months: 12, days: null },
    vehicleTypes: null,
    fuelTypes: null,
  });
  const global = await ok(F.carol, `query($id: ID!) { maintenanceTemplate(id: $id) { id vehicleTypes } }`, {
    id: M.templates.hvacVans,
  });
  assert.deepEqual(global.maintenanceTemplate, { id: M.templates.hvacVans, vehicleTypes: ['VAN'] });
  const list = await ok(F.alice, `{ maintenanceTemplates { count list { id } } }`);
  assert.equal(list.maintenanceTemplates.count, 6); // 4 Acme + 2 global
  const filtered = await ok(
    F.alice,
    `{ maintenanceTemplates(systems: [HVAC, INSPECTION], fromExternalService: false, vehicleType: "VAN") { count list { id } } }`,
  );
  assert.deepEqual(
    filtered.maintenanceTemplates.list.map((x: any) => x.id),
    [M.templates.hvacVans],
  );
});

test('maintenanceHistorical and Vehicle.maintenanceHistory', async () => {
  const one = await ok(
    F.alice,
    `query($id: ID!) { maintenanceHistorical(id: $id) { id mileage date notes fromExternalService vehicle { id } template { id system } } }`,
    { id: M.history.v1Oil },
  );
  assert.deepEqual(one.maintenanceHistorical, {
    id: M.history.v1Oil,
    mileage: 1000,
    date: '2025-09-15T00:00:00.000Z',
    notes: null,
    fromExternalService: false,
    vehicle: { id: F.vehicles.depot[0] },
    template: { id: M.templates.oil, system: 'ENGINE' },
  });
  const v = await ok(
    F.alice,
    `query($r: [_Any!]!) { _entities(representations: $r) { ... on Vehicle { id maintenanceHistory(pageSize: 1) { count next list { id date } } } } }`,
    { r: [{ __typename: 'Vehicle', id: F.vehicles.depot[0] }] },
  );
  const page = v._entities[0].maintenanceHistory;
  assert.equal(page.count, 2);
  assert.deepEqual(
    page.list.map((x: any) => x.id),
    [M.history.v1Tires],
  );
  const second = await ok(
    F.alice,
    `query($r: [_Any!]!, $p: ID) { _entities(representations: $r) { ... on Vehicle { maintenanceHistory(pageId: $p) { next list { id } } } } }`,
    { r: [{ __typename: 'Vehicle', id: F.vehicles.depot[0] }], p: page.next },
  );
  assert.deepEqual(second._entities[0].maintenanceHistory, { next: null, list: [{ id: M.history.v1Oil }] });
});

test('maintenanceHistoricals: visible records, filters, newest first, paged', async () => {
  const q = `query($v: [ID!], $t: [ID!], $s: [MaintenanceSystem!], $a: DateTime, $b: DateTime, $n: Int, $p: ID) {
    maintenanceHistoricals(vehicleIds: $v, templateIds: $t, systems: $s, doneAfter: $a, doneBefore: $b, pageSize: $n, pageId: $p) {
      count next list { id date } } }`;
  const alice = await ok(F.alice, q);
  assert.equal(alice.maintenanceHistoricals.count, 5);
  assert.deepEqual(
    alice.maintenanceHistoricals.list.map((x: any) => x.id),
    [M.history.s1Oil, M.history.v1Tires, M.history.v2Tires, M.history.v1Oil, M.history.v2Oil],
  );
  const bob = await ok(F.bob, q);
  assert.equal(bob.maintenanceHistoricals.count, 4);
  assert.ok(!bob.maintenanceHistoricals.list.some((x: any) => x.id === M.history.s1Oil));
  const carol = await ok(F.carol, q);
  assert.deepEqual(
    carol.maintenanceHistoricals.list.map((x: any) => x.id),
    [M.history.gOil],
  );
  const filtered = await ok(F.alice, q, {
    v: [F.vehicles.depot[0], F.vehicles.depot[1]],
    s: ['TIRES'],
    a: '2025-10-20T00:00:00Z',
    b: '2026-03-01T00:00:00Z',
  });
  assert.deepEqual(
    filtered.maintenanceHistoricals.list.map((x: any) => x.id),
    [M.history.v2Tires],
  );
  const byTemplate = await ok(F.alice, q, { t: [M.templates.oil], n: 2 });
  assert.equal(byTemplate.maintenanceHistoricals.count, 3);
  const page2 = await ok(F.alice, q, { t: [M.templates.oil], p: byTemplate.maintenanceHistoricals.next });
  assert.deepEqual(
    [...byTemplate.maintenanceHistoricals.list, ...page2.maintenanceHistoricals.list].map((x: any) => x.id),
    [M.history.s1Oil, M.history.v1Oil, M.history.v2Oil],
  );
  assert.equal(page2.maintenanceHistoricals.next, null);
  await fails(F.alice, `{ maintenanceHistoricals(vehicleIds: ["x"]) { count } }`, 'BAD_USER_INPUT');
  await fails(F.alice, `{ maintenanceHistoricals(pageSize: 501) { count } }`, 'BAD_USER_INPUT');
});

test('Vehicle.maintenanceUpcoming: filters and ids usable with maintenanceUpcoming', async () => {
  const v = await ok(
    F.alice,
    `query($r: [_Any!]!) { _entities(representations: $r) { ... on Vehicle {
      all: maintenanceUpcoming { count list { id template { id } criticality { criticality } } }
      urgent: maintenanceUpcoming(minCriticality: 3, systems: [INSPECTION, HVAC]) { count list { template { id } } } } } }`,
    { r: [{ __typename: 'Vehicle', id: F.vehicles.depot[0] }] },
  );
  const e = v._entities[0];
  assert.equal(e.all.count, 5);
  assert.deepEqual(
    new Set(e.urgent.list.map((x: any) => x.template.id)),
    new Set([M.templates.inspection, M.templates.hvacVans]),
  );
  const item = await ok(F.alice, `query($id: ID!) { maintenanceUpcoming(id: $id) { id } }`, {
    id: e.all.list[0].id,
  });
  assert.equal(item.maintenanceUpcoming.id, e.all.list[0].id);
});

test('isolation: carol (Globex) sees nothing of Acme, _entities included', async () => {
  const acmeItems = await ok(
    F.alice,
    `{ maintenanceUpcomings(vehicleIds: ["${F.vehicles.south[0]}"]) { list { id } } }`,
  );
  const acmeUpcoming = acmeItems.maintenanceUpcomings.list[0].id;
  const d = await ok(
    F.carol,
    `query($t: ID!, $h: ID!, $u: ID!) { maintenanceTemplate(id: $t) { id } maintenanceHistorical(id: $h) { id }
      maintenanceUpcoming(id: $u) { id } maintenanceUpcomings(pageSize: 500) { count list { vehicle { id } template { id } criticality { code } } }
      maintenanceTemplates { list { id } } }`,
    { t: M.templates.oil, h: M.history.v1Oil, u: acmeUpcoming },
  );
  assert.equal(d.maintenanceTemplate, null);
  assert.equal(d.maintenanceHistorical, null);
  assert.equal(d.maintenanceUpcoming, null);
  assert.deepEqual(d.maintenanceUpcomings.list, [
    {
      vehicle: { id: F.vehicles.globex },
      template: { id: M.templates.globexOil },
      criticality: { code: 'NORMAL' },
    },
  ]);
  assert.ok(!d.maintenanceTemplates.list.some((t: any) => t.id === M.templates.oil));
  const e = await ok(
    F.carol,
    `query($r: [_Any!]!) { _entities(representations: $r) {
      ... on Vehicle { id maintenanceHistory { count } maintenanceUpcoming { count } }
      ... on MaintenanceHistorical { id } ... on MaintenanceTemplate { id } ... on MaintenanceCriticalityThreshold { id } } }`,
    {
      r: [
        { __typename: 'Vehicle', id: F.vehicles.depot[0] },
        { __typename: 'MaintenanceHistorical', id: M.history.v1Oil },
        { __typename: 'MaintenanceTemplate', id: M.templates.oil },
        { __typename: 'MaintenanceCriticalityThreshold', id: M.thresholds.globexUrgent },
        { __typename: 'Vehicle', id: F.vehicles.globex },
      ],
    },
  );
  assert.deepEqual(e._entities.slice(0, 3), [null, null, null]);
  assert.deepEqual(e._entities[3], { id: M.thresholds.globexUrgent });
  assert.equal(e._entities[4].id, F.vehicles.globex);
  assert.equal(e._entities[4].maintenanceHistory.count, 1);
  // and the reverse: alice does not see Globex's own threshold
  const a = await ok(
    F.alice,
    `query($r: [_Any!]!) { _entities(representations: $r) { ... on MaintenanceCriticalityThreshold { id } } }`,
    {
      r: [{ __typename: 'MaintenanceCriticalityThreshold', id: M.thresholds.globexUrgent }],
    },
  );
  assert.deepEqual(a._entities, [null]);
});

test('isolation: bob (North only) sees the depot vehicles, not South', async () => {
  const all = await ok(F.bob, `{ maintenanceUpcomings(pageSize: 500) { count list { vehicle { id } } } }`);
  assert.equal(all.maintenanceUpcomings.count, 13);
  assert.ok(all.maintenanceUpcomings.list.every((i: any) => F.vehicles.depot.includes(i.vehicle.id)));
  const southOnly = await ok(
    F.bob,
    `{ maintenanceUpcomings(vehicleIds: ["${F.vehicles.south[0]}"], groupIds: ["${F.groups.south}"]) { count list { id } } }`,
  );
  assert.equal(southOnly.maintenanceUpcomings.count, 0);
  const aliceSouth = await ok(
    F.alice,
    `{ maintenanceUpcomings(vehicleIds: ["${F.vehicles.south[0]}"]) { list { id } } }`,
  );
  const d = await ok(
    F.bob,
    `query($h: ID!, $u: ID!, $r: [_Any!]!) { maintenanceHistorical(id: $h) { id } maintenanceUpcoming(id: $u) { id }
      _entities(representations: $r) { ... on Vehicle { id } ... on MaintenanceHistorical { id } } }`,
    {
      h: M.history.s1Oil,
      u: aliceSouth.maintenanceUpcomings.list[0].id,
      r: [
        { __typename: 'Vehicle', id: F.vehicles.south[0] },
        { __typename: 'MaintenanceHistorical', id: M.history.s1Oil },
        { __typename: 'MaintenanceHistorical', id: M.history.v1Oil },
      ],
    },
  );
  assert.equal(d.maintenanceHistorical, null);
  assert.equal(d.maintenanceUpcoming, null);
  assert.deepEqual(d._entities, [null, null, { id: M.history.v1Oil }]);
});

test('bad input: malformed ids, page sizes, cursors and criticality', async () => {
  const nulls = await ok(
    F.alice,
    `{ maintenanceTemplate(id: "nope") { id } maintenanceHistorical(id: "x") { id } maintenanceUpcoming(id: "garbage!") { id }
       other: maintenanceUpcoming(id: "bXUxOng6eToz") { id } }`,
  );
  assert.deepEqual(nulls, {
    maintenanceTemplate: null,
    maintenanceHistorical: null,
    maintenanceUpcoming: null,
    other: null,
  });
  const e1 = await fails(
    F.alice,
    `{ maintenanceUpcomings(vehicleIds: ["not-a-uuid"]) { count } }`,
    'BAD_USER_INPUT',
  );
  assert.match(e1.message, /vehicleIds\[0\]/);
  await fails(F.alice, `{ maintenanceUpcomings(groupIds: ["x"]) { count } }`, 'BAD_USER_INPUT');
  const e2 = await fails(F.alice, `{ maintenanceUpcomings(pageSize: 501) { count } }`, 'BAD_USER_INPUT');
  assert.match(e2.message, /between 1 and 500/);
  await fails(F.alice, `{ maintenanceUpcomings(pageSize: 0) { count } }`, 'BAD_USER_INPUT');
  await fails(F.alice, `{ maintenanceUpcomings(minCriticality: 0) { count } }`, 'BAD_USER_INPUT');
  await fails(F.alice, `{ maintenanceUpcomings(pageId: "abc.def") { count } }`, 'BAD_USER_INPUT');
  await fails(F.alice, `{ maintenanceCriticalityThresholds(pageSize: 101) { count } }`, 'BAD_USER_INPUT');
  await fails(F.alice, `{ maintenanceTemplates(pageSize: 201) { count } }`, 'BAD_USER_INPUT');
  // a cursor of one filter set does not continue another
  const first = await ok(F.alice, `{ maintenanceUpcomings(pageSize: 2) { next } }`);
  await fails(
    F.alice,
    `query($p: ID) { maintenanceUpcomings(systems: [ENGINE], pageId: $p) { count } }`,
    'BAD_USER_INPUT',
    { p: first.maintenanceUpcomings.next },
  );
  await fails(F.alice, `{ maintenanceUpcomings(systems: [WINGS]) { count } }`, 'GRAPHQL_VALIDATION_FAILED');
  const entities = await fails(
    F.alice,
    `query($r: [_Any!]!) { _entities(representations: $r) { ... on Vehicle { maintenanceHistory(pageSize: 1000) { count } } } }`,
    'BAD_USER_INPUT',
    { r: [{ __typename: 'Vehicle', id: F.vehicles.depot[0] }] },
  );
  assert.match(entities.message, /pageSize/);
  const malformed = await ok(
    F.alice,
    `query($r: [_Any!]!) { _entities(representations: $r) { ... on Vehicle { id } } }`,
    {
      r: [{ __typename: 'Vehicle', id: 'not-a-uuid' }],
    },
  );
  assert.deepEqual(malformed._entities, [null]);
});

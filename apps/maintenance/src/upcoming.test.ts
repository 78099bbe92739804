/**
 * Upcoming work through the subgraph: a table of cases whose expected deadlines are computed here,
 * by hand from the fixture's facts (see test-fixture.ts), not with the app's module.
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
    label: 'maintenance-upcoming',
    env: { MAINTENANCE_NOW: NOW },
    seed: (knex, facts) => seedMaintenanceFixture(knex, facts['fleet-core']),
  });
  F = h.facts['fleet-core'];
});
after(() => h?.close());

const DAY = 86_400_000;
const daysUntil = (iso: string) => Math.floor((Date.parse(iso) - Date.parse(NOW)) / DAY);
// Fixture trips (fleet-core): depot vehicle 1 drove 20..49 km on March 1..30; south vehicle 1 20..24 km.
const V1_AVG = Array.from({ length: 30 }, (_, i) => 20 + i).reduce((a, b) => a + b) / 30;
const S1_AVG = (20 + 21 + 22 + 23 + 24) / 30;

const ITEM = `id cycle mileageDeadline remainingDistanceToDrive dateDeadline remainingDaysToDrive currentMileage
  odometerSource averageDailyDistance baseMileage baseDate
  template { id description system fromExternalService organizationId interval { distanceKm months days } vehicleTypes fuelTypes }
  vehicle { id } criticality { id code criticality remainingDistance remainingDuration description organizationId inForce }`;

async function allFor(user: any) {
  const res = await h.as(user)(`{ maintenanceUpcomings(pageSize: 500) { count next list { ${ITEM} } } }`);
  assert.equal(res.errors, undefined, JSON.stringify(res.errors));
  return res.data.maintenanceUpcomings;
}

interface Case {
  name: string;
  vehicle: () => string;
  template: string;
  mileageDeadline: number | null;
  remainingDistanceToDrive: number | null;
  dateDeadline: string | null;
  remainingDaysToDrive: number | null;
  code: string;
  currentMileage?: number | null;
  odometerSource?: string | null;
}

const CASES: Case[] = [
  {
    name: 'km first: 4,800 km at 34.5 km/day before the date',
    vehicle: () => F.vehicles.depot[0],
    template: M.templates.tires,
    mileageDeadline: 9800 + 5000,
    remainingDistanceToDrive: 9800 + 5000 - 10000,
    dateDeadline: '2026-09-01T00:00:00.000Z',
    remainingDaysToDrive: Math.min(daysUntil('2026-09-01T00:00:00Z'), Math.floor(4800 / V1_AVG)),
    code: 'PLANNED',
  },
  {
    name: 'time first: the date comes before 6,000 km are driven',
    vehicle: () => F.vehicles.depot[0],
    template: M.templates.oil,
    mileageDeadline: 16000,
    remainingDistanceToDrive: 6000,
    dateDeadline: '2026-09-15T00:00:00.000Z',
    remainingDaysToDrive: daysUntil('2026-09-15T00:00:00Z'),
    code: 'PLANNED',
  },
  {
    name: 'never serviced, time only: from the vehicle creation, overdue',
    vehicle: () => F.vehicles.depot[0],
    template: M.templates.inspection,
    mileageDeadline: null,
    remainingDistanceToDrive: null,
    dateDeadline: '2025-01-01T00:00:00.000Z',
    remainingDaysToDrive: daysUntil('2025-01-01T00:00:00Z'),
    code: 'OVERDUE',
  },
  {
    name: 'global template for vans only: applies to the van',
    vehicle: () => F.vehicles.depot[0],
    template: M.templates.hvacVans,
    mileageDeadline: null,
    remainingDistanceToDrive: null,
    dateDeadline: '2026-01-01T00:00:00.000Z',
    remainingDaysToDrive: daysUntil('2026-01-01T00:00:00Z'),
    code: 'OVERDUE',
  },
  {
    name: 'overdue on both, idle vehicle: the calendar decides',
    vehicle: () => F.vehicles.depot[1],
    template: M.templates.oil,
    mileageDeadline: 20000,
    remainingDistanceToDrive: 0,
    dateDeadline: '2026-01-15T00:00:00.000Z',
    remainingDaysToDrive: daysUntil('2026-01-15T00:00:00Z'),
    code: 'OVERDUE',
  },
  {
    name: 'idle vehicle within 1,000 km: due soon',
    vehicle: () => F.vehicles.depot[1],
    template: M.templates.tires,
    mileageDeadline: 20500,
    remainingDistanceToDrive: 500,
    dateDeadline: '2026-04-20T00:00:00.000Z',
    remainingDaysToDrive: daysUntil('2026-04-20T00:00:00Z'),
    code: 'DUE_SOON',
  },
  {
    name: 'no odometer: distance unknown, date only',
    vehicle: () => F.vehicles.depot[2],
    template: M.templates.oil,
    mileageDeadline: 15000,
    remainingDistanceToDrive: null,
    dateDeadline: '2026-04-09T00:00:00.000Z',
    remainingDaysToDrive: daysUntil('2026-04-09T00:00:00Z'),
    code: 'DUE_SOON',
    currentMileage: null,
    odometerSource: null,
  },
  {
    name: 'no odometer, distance-only template: nothing known, base level',
    vehicle: () => F.vehicles.depot[2],
    template: M.templates.brakes,
    mileageDeadline: 30000,
    remainingDistanceToDrive: null,
    dateDeadline: null,
    remainingDaysToDrive: null,
    code: 'PLANNED',
  },
  {
    name: 'service recorded above the odometer: its mileage is the current floor',
    vehicle: () => F.vehicles.south[0],
    template: M.templates.oil,
    mileageDeadline: 119000,
    remainingDistanceToDrive: 15000,
    dateDeadline: '2027-03-15T00:00:00.000Z',
    remainingDaysToDrive: Math.min(daysUntil('2027-03-15T00:00:00Z'), Math.floor(15000 / S1_AVG)),
    code: 'PLANNED',
    currentMileage: 104000,
    odometerSource: 'SERVICE_RECORD',
  },
  {
    name: 'never serviced at 104,000 km: overdue in km, days at the average',
    vehicle: () => F.vehicles.south[0],
    template: M.templates.brakes,
    mileageDeadline: 30000,
    remainingDistanceToDrive: 30000 - 104000,
    dateDeadline: null,
    remainingDaysToDrive: Math.floor((30000 - 104000) / S1_AVG),
    code: 'OVERDUE',
  },
];

test('upcoming work: every case of the table', async () => {
  const page = await allFor(F.alice);
  // Acme: the van has 4 organization templates + the vans' template; the 4 other vehicles 4 each.
  assert.equal(page.count, 5 + 4 * 4);
  assert.equal(page.list.length, 21);
  assert.equal(page.next, null);
  for (const c of CASES) {
    const item = page.list.find((i: any) => i.vehicle.id === c.vehicle() && i.template.id === c.template);
    assert.ok(item, `${c.name}: item present`);
    assert.equal(item.mileageDeadline, c.mileageDeadline, `${c.name}: mileageDeadline`);
    assert.equal(
      item.remainingDistanceToDrive,
      c.remainingDistanceToDrive,
      `${c.name}: remainingDistanceToDrive`,
    );
    assert.equal(item.dateDeadline, c.dateDeadline, `${c.name}: dateDeadline`);
    assert.equal(item.remainingDaysToDrive, c.remainingDaysToDrive, `${c.name}: remainingDaysToDrive`);
    assert.equal(item.criticality.code, c.code, `${c.name}: criticality`);
    assert.equal(item.criticality.inForce, true);
    if (c.currentMileage !== undefined)
      assert.equal(item.currentMileage, c.currentMileage, `${c.name}: currentMileage`);
    if (c.odometerSource !== undefined)
      assert.equal(item.odometerSource, c.odometerSource, `${c.name}: source`);
  }
  const v1Oil = page.list.find(
    (i: any) => i.vehicle.id === F.vehicles.depot[0] && i.template.id === M.templates.oil,
  );
  assert.equal(v1Oil.averageDailyDistance, V1_AVG);
  assert.equal(v1Oil.currentMileage, 10000);
  assert.equal(v1Oil.odometerSource, 'READING');
  assert.equal(v1Oil.cycle, 1);
  assert.equal(v1Oil.baseMileage, 1000);
  assert.equal(v1Oil.baseDate, '2025-09-15T00:00:00.000Z');
  assert.deepEqual(v1Oil.template.interval, { distanceKm: 15000, months: 12, days: null });
  assert.equal(
    page.list.filter((i: any) => i.template.id === M.templates.busBody).length,
    0,
    'bus-only template on no car',
  );
  // default sort URGENCY: criticality descending, then fewest days
  const levels = page.list.map((i: any) => i.criticality.criticality);
  assert.deepEqual(
    levels,
    [...levels].sort((a: number, b: number) => b - a),
  );
});

test('upcoming ids are stable; maintenanceUpcoming(id) recomputes the item; a recorded service closes the cycle', async () => {
  const first = (await allFor(F.alice)).list;
  const second = (await allFor(F.alice)).list;
  assert.deepEqual(
    first.map((i: any) => i.id),
    second.map((i: any) => i.id),
  );
  const v2Tires = first.find(
    (i: any) => i.vehicle.id === F.vehicles.depot[1] && i.template.id === M.templates.tires,
  );
  const one = await h.as(F.alice)(`query($id: ID!) { maintenanceUpcoming(id: $id) { ${ITEM} } }`, {
    id: v2Tires.id,
  });
  assert.equal(one.errors, undefined);
  assert.deepEqual(one.data.maintenanceUpcoming, v2Tires);
  // The tires are rotated: the old cycle's id answers null, the next cycle starts from this service.
  const serviceId = 'b8000000-0000-4000-8000-0000000000ff';
  await h.knex('maintenance.history').insert({
    id: serviceId,
    vehicle_id: F.vehicles.depot[1],
    template_id: M.templates.tires,
    mileage_km: 20100,
    done_at: new Date('2026-03-30T00:00:00Z'),
  });
  try {
    const gone = await h.as(F.alice)(`query($id: ID!) { maintenanceUpcoming(id: $id) { id } }`, {
      id: v2Tires.id,
    });
    assert.equal(gone.errors, undefined);
    assert.equal(gone.data.maintenanceUpcoming, null);
    const next = (await allFor(F.alice)).list.find(
      (i: any) => i.vehicle.id === F.vehicles.depot[1] && i.template.id === M.templates.tires,
    );
    assert.equal(next.cycle, v2Tires.cycle + 1);
    assert.notEqual(next.id, v2Tires.id);
    assert.equal(next.mileageDeadline, 25100);
    // the service is above the 20,000 km odometer: the floor moves to 20,100
    assert.equal(next.currentMileage, 20100);
    assert.equal(next.remainingDistanceToDrive, 5000);
    assert.equal(next.dateDeadline, '2026-09-30T00:00:00.000Z');
  } finally {
    await h.knex('maintenance.history').where('id', serviceId).delete();
  }
});

test('filters, sort and paging of maintenanceUpcomings', async () => {
  const q = `query($v: [ID!], $g: [ID!], $s: [MaintenanceSystem!], $t: [ID!], $c: Int, $sort: MaintenanceUpcomingSort, $size: Int, $page: ID) {
    maintenanceUpcomings(vehicleIds: $v, groupIds: $g, systems: $s, templateIds: $t, minCriticality: $c, sort: $sort, pageSize: $size, pageId: $page) {
      count next list { id vehicle { id } template { id system } criticality { criticality } dateDeadline remainingDistanceToDrive } } }`;
  const run = async (vars: Record<string, unknown>) => {
    const res = await h.as(F.alice)(q, vars);
    assert.equal(res.errors, undefined, JSON.stringify(res.errors));
    return res.data.maintenanceUpcomings;
  };
  const byVehicle = await run({ v: [F.vehicles.depot[0]] });
  assert.equal(byVehicle.count, 5);
  const south = await run({ g: [F.groups.south] });
  assert.deepEqual(new Set(south.list.map((i: any) => i.vehicle.id)), new Set(F.vehicles.south));
  const north = await run({ g: [F.groups.north] }); // North Depot is a descendant of North
  assert.equal(north.count, 13);
  const engines = await run({ s: ['ENGINE'] });
  assert.ok(engines.list.length === 5 && engines.list.every((i: any) => i.template.system === 'ENGINE'));
  const tires = await run({ t: [M.templates.tires] });
  assert.equal(tires.count, 5);
  const urgent = await run({ c: 2 });
  assert.ok(urgent.list.length > 0 && urgent.list.every((i: any) => i.criticality.criticality >= 2));
  const byDate = await run({ sort: 'DATE_DEADLINE' });
  const dates = byDate.list.map((i: any) => i.dateDeadline).filter(Boolean);
  assert.deepEqual(dates, [...dates].sort());
  assert.equal(byDate.list.at(-1).dateDeadline, null, 'unknown dates last');
  const byKm = await run({ sort: 'REMAINING_DISTANCE' });
  const kms = byKm.list.map((i: any) => i.remainingDistanceToDrive).filter((k: any) => k !== null);
  assert.deepEqual(
    kms,
    [...kms].sort((a: number, b: number) => a - b),
  );
  // pages of 4 cover the list exactly once, in order
  const all = (await run({})).list.map((i: any) => i.id);
  const seen: string[] = [];
  let page: string | null = null;
  do {
    const p: any = await run({ size: 4, page });
    seen.push(...p.list.map((i: any) => i.id));
    page = p.next;
  } while (page);
  assert.deepEqual(seen, all);
  // an empty vehicle list answers an empty page
  assert.equal((await run({ v: [] })).count, 0);
});

test('statements per request do not depend on the page size', async () => {
  const q = (size: number) => `{ maintenanceUpcomings(pageSize: ${size}) { count list { ${ITEM} } } }`;
  h.statements.reset();
  const small = await h.as(F.alice)(q(1));
  const nSmall = h.statements.count;
  h.statements.reset();
  const large = await h.as(F.alice)(q(21));
  const nLarge = h.statements.count;
  assert.equal(small.errors, undefined);
  assert.equal(large.data.maintenanceUpcomings.list.length, 21);
  assert.equal(nSmall, nLarge);
  // templates, thresholds, whether the kept work is up to date, the kept work of the visible
  // vehicles: no transaction, no `set`
  assert.equal(nLarge, 4, `${nLarge} statements`);
  // Vehicle entities with both contributed fields: same count for 1 and 5 vehicles
  const entities = (ids: string[]) =>
    h.as(F.alice)(
      `query($r: [_Any!]!) { _entities(representations: $r) { ... on Vehicle { id
        maintenanceUpcoming(pageSize: 2) { count list { id template { id } criticality { code } } }
        maintenanceHistory(pageSize: 1) { count next list { id mileage date template { id } vehicle { id } } } } } }`,
      { r: ids.map((id) => ({ __typename: 'Vehicle', id })) },
    );
  h.statements.reset();
  const one = await entities([F.vehicles.depot[0]]);
  const nOne = h.statements.count;
  const textsOne = h.statements.statements;
  h.statements.reset();
  const five = await entities([...F.vehicles.depot, ...F.vehicles.south]);
  const nFive = h.statements.count;
  // the same texts for 1 and 5 vehicles: each stays one named statement, planned once
  assert.deepEqual(new Set(h.statements.statements), new Set(textsOne));
  assert.equal(one.errors, undefined, JSON.stringify(one.errors));
  assert.equal(five.data._entities.length, 5);
  assert.ok(five.data._entities.every((v: any) => v.maintenanceUpcoming.list.length > 0));
  assert.equal(nOne, nFive);
});

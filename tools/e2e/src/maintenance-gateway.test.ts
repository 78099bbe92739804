/**
 * maintenance through the real gateway, on the demo data (every manifest's demo hook):
 * - the demo login reaches every maintenance query and the fields contributed to Vehicle, and the
 *   gateway answers exactly what the subgraph answers directly;
 * - upcoming deadlines agree with ones recomputed here from the raw rows (history, odometer,
 *   trips read through the contract views) for a sample of demo vehicles;
 * - every criticality (OVERDUE, DUE_SOON, PLANNED) appears in the demo;
 * - another organization's login gets null for the demo organization's ids.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { postGraphQL } from '@fleetgraph/testing';
import { DEMO_EMAIL, DEMO_PASSWORD } from '@fleetgraph/seed';
import { startStack, type Stack } from './stack';

const OTHER_ORG_EMAIL = 'ops@globex.example';
const NOW = new Date(Date.UTC(2026, 10, 23, 12)).toISOString();
const DAY = 86_400_000;

let stack: Stack;
const tokens = { demo: '', other: '' };
before(async () => {
  stack = await startStack('maintenance-gateway', { MAINTENANCE_NOW: NOW });
  tokens.demo = await stack.login(DEMO_EMAIL, DEMO_PASSWORD);
  tokens.other = await stack.login(OTHER_ORG_EMAIL, DEMO_PASSWORD);
});
after(() => stack?.close());

async function gateway(token: string, query: string, variables: Record<string, unknown> = {}) {
  const res = await postGraphQL(stack.platform.urls.graphql, query, { token, variables });
  assert.equal(res.errors, undefined, JSON.stringify(res.errors));
  assert.ok(res.data);
  return res.data;
}

const ITEM = `id mileageDeadline remainingDistanceToDrive dateDeadline remainingDaysToDrive currentMileage odometerSource
  averageDailyDistance cycle baseMileage baseDate
  template { id description system fromExternalService organizationId interval { distanceKm months days } vehicleTypes fuelTypes }
  vehicle { id plate } criticality { id code criticality remainingDistance remainingDuration description organizationId inForce }`;

test('every maintenance query through the gateway, as the subgraph answers it', async () => {
  const document = `{
    maintenanceCriticalityThreshold { id code criticality remainingDistance remainingDuration description inForce }
    maintenanceCriticalityThresholds { count next list { id code criticality inForce } }
    maintenanceTemplates(pageSize: 100) { count list { id description system interval { distanceKm months days } } }
    maintenanceUpcomings(pageSize: 500) { count next list { ${ITEM} } }
    maintenanceHistoricals(pageSize: 5) { count next list { id mileage date notes fromExternalService vehicle { id } template { id } } }
  }`;
  const viaGateway = await gateway(tokens.demo, document);
  const direct = await postGraphQL(
    stack.platform.urls.subgraphs['maintenance']!,
    document.replace(/ plate/g, ''),
    {
      token: tokens.demo,
      headers: stack.platform.subgraphHeaders,
    },
  );
  assert.equal(direct.errors, undefined);
  assert.equal(viaGateway.maintenanceCriticalityThreshold.code, 'OVERDUE');
  assert.equal(viaGateway.maintenanceCriticalityThresholds.count, 3);
  assert.ok(viaGateway.maintenanceTemplates.count >= 14);
  assert.ok(viaGateway.maintenanceTemplates.list.some((t: any) => t.system === 'INSPECTION'));
  assert.ok(viaGateway.maintenanceHistoricals.count > 100);
  assert.deepEqual(viaGateway.maintenanceHistoricals, direct.data.maintenanceHistoricals);
  const upcoming = viaGateway.maintenanceUpcomings;
  assert.ok(upcoming.count > 100, `${upcoming.count} items`);
  assert.ok(
    upcoming.list.every((i: any) => typeof i.vehicle.plate === 'string'),
    'Vehicle resolved by fleet-core',
  );
  assert.deepEqual(
    upcoming.list.map((i: any) => i.id),
    direct.data.maintenanceUpcomings.list.map((i: any) => i.id),
  );
  // every criticality appears in the demo (counted by level, whatever the page size)
  const levels = await gateway(
    tokens.demo,
    `{ overdue: maintenanceUpcomings(minCriticality: 3) { count } dueSoon: maintenanceUpcomings(minCriticality: 2) { count }
       all: maintenanceUpcomings { count } }`,
  );
  assert.ok(levels.overdue.count > 0, 'OVERDUE in the demo');
  assert.ok(levels.dueSoon.count > levels.overdue.count, 'DUE_SOON in the demo');
  assert.ok(levels.all.count > levels.dueSoon.count, 'PLANNED in the demo');

  // single lookups by the ids of the list
  const item = upcoming.list.find((i: any) => i.cycle > 0);
  const one = await gateway(
    tokens.demo,
    `query($u: ID!, $t: ID!) { maintenanceUpcoming(id: $u) { ${ITEM} } maintenanceTemplate(id: $t) { id system } }`,
    { u: item.id, t: item.template.id },
  );
  assert.deepEqual(one.maintenanceUpcoming, item);
  assert.equal(one.maintenanceTemplate.id, item.template.id);
});

test('Vehicle.maintenanceUpcoming and maintenanceHistory through the gateway, deadlines recomputed from the rows', async () => {
  const vehicles = await gateway(
    tokens.demo,
    `{ account { vehicles(pageSize: 5) { list { id plate
       maintenanceUpcoming(pageSize: 100) { count list { id template { id } mileageDeadline remainingDistanceToDrive dateDeadline remainingDaysToDrive cycle criticality { code } } }
       maintenanceHistory(pageSize: 3) { count next list { id mileage date template { id } vehicle { id } } } } } } }`,
  );
  assert.equal(vehicles.account.vehicles.list.length, 5);
  for (const v of vehicles.account.vehicles.list) {
    assert.ok(v.maintenanceUpcoming.count > 0);
    assert.ok(v.maintenanceHistory.count > 0);
    const h = v.maintenanceHistory.list[0];
    const one = await gateway(
      tokens.demo,
      `query($id: ID!) { maintenanceHistorical(id: $id) { id mileage vehicle { id plate } } }`,
      {
        id: h.id,
      },
    );
    assert.deepEqual(one.maintenanceHistorical, {
      id: h.id,
      mileage: h.mileage,
      vehicle: { id: v.id, plate: v.plate },
    });
    // recompute each deadline from the raw rows
    const odometer = await stack.knex.raw(
      `select odometer_km from fleet_contract.vehicle_odometer_v1 where vehicle_id = ? order by recorded_at desc, odometer_km desc limit 1`,
      [v.id],
    );
    const services = await stack
      .knex('maintenance.history')
      .where('vehicle_id', v.id)
      .select('template_id', 'mileage_km', 'done_at');
    // the 30 whole UTC days before NOW's day: [2026-10-24, 2026-11-23)
    const km30 = await stack.knex.raw(
      `select coalesce(sum(distance_m), 0) / 1000.0 as km from fleet_contract.trips_v1 where vehicle_id = ? and ended_at >= ? and ended_at < ?`,
      [v.id, '2026-10-24T00:00:00Z', '2026-11-23T00:00:00Z'],
    );
    const reading = odometer.rows[0] ? Number(odometer.rows[0].odometer_km) : null;
    const floor = Math.max(...services.map((s: any) => s.mileage_km), -1);
    const current = reading === null && floor < 0 ? null : Math.max(Math.round(reading ?? -1), floor);
    const perDay = Number(km30.rows[0].km) / 30;
    for (const item of v.maintenanceUpcoming.list) {
      const template = await stack.knex('maintenance.templates').where('id', item.template.id).first();
      const own = services
        .filter((s: any) => s.template_id === item.template.id)
        .sort((a: any, b: any) => b.done_at - a.done_at);
      assert.equal(item.cycle, own.length);
      const baseKm = own[0]?.mileage_km ?? 0;
      const expectedKm = template.interval_km === null ? null : baseKm + template.interval_km;
      assert.equal(item.mileageDeadline, expectedKm);
      assert.equal(
        item.remainingDistanceToDrive,
        expectedKm === null || current === null ? null : expectedKm - current,
      );
      if (template.interval_months && !template.interval_days && own[0]) {
        const base = new Date(own[0].done_at);
        const target = new Date(base);
        target.setUTCDate(1);
        target.setUTCMonth(target.getUTCMonth() + template.interval_months);
        const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
        target.setUTCDate(Math.min(base.getUTCDate(), lastDay));
        assert.equal(item.dateDeadline, target.toISOString());
        const calendar = Math.floor((target.getTime() - Date.parse(NOW)) / DAY);
        const byKm =
          item.remainingDistanceToDrive !== null && perDay > 0
            ? Math.floor(item.remainingDistanceToDrive / perDay)
            : null;
        assert.equal(item.remainingDaysToDrive, byKm === null ? calendar : Math.min(calendar, byKm));
      }
    }
  }
});

test('another organization sees none of the demo organization maintenance', async () => {
  const demo = await gateway(
    tokens.demo,
    `{ maintenanceUpcomings(pageSize: 1) { list { id vehicle { id } template { id organizationId } } } account { vehicles(pageSize: 1) { list { id maintenanceHistory(pageSize: 1) { list { id } } } } } }`,
  );
  const item = demo.maintenanceUpcomings.list[0];
  const historyId = demo.account.vehicles.list[0].maintenanceHistory.list[0].id;
  const other = await gateway(
    tokens.other,
    `query($u: ID!, $h: ID!) { maintenanceUpcoming(id: $u) { id } maintenanceHistorical(id: $h) { id }
       maintenanceUpcomings(pageSize: 500) { list { id vehicle { id } } } }`,
    { u: item.id, h: historyId },
  );
  assert.equal(other.maintenanceUpcoming, null);
  assert.equal(other.maintenanceHistorical, null);
  assert.ok(!other.maintenanceUpcomings.list.some((i: any) => i.vehicle.id === item.vehicle.id));
  const entities = await postGraphQL(
    stack.platform.urls.subgraphs['maintenance']!,
    `query($r: [_Any!]!) { _entities(representations: $r) { ... on Vehicle { id maintenanceUpcoming { count } } ... on MaintenanceHistorical { id } } }`,
    {
      token: tokens.other,
      headers: stack.platform.subgraphHeaders,
      variables: {
        r: [
          { __typename: 'Vehicle', id: item.vehicle.id },
          { __typename: 'MaintenanceHistorical', id: historyId },
        ],
      },
    },
  );
  assert.equal(entities.errors, undefined);
  assert.deepEqual(entities.data._entities, [null, null]);
});

/**
 * Drivers and trips end to end: password grant at the real SSO -> gateway -> fleet-core ->
 * PostgreSQL, on the seeded demo data; expected answers are computed from the database directly.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { postGraphQL } from '@fleetgraph/testing';
import { DEMO_EMAIL, DEMO_PASSWORD } from '@fleetgraph/seed';
import { startStack, type Stack } from './stack';

let stack: Stack;
let demoToken: string;
let globexToken: string;
before(async () => {
  stack = await startStack('e2e_drivers_trips');
  demoToken = await stack.login(DEMO_EMAIL, DEMO_PASSWORD);
  globexToken = await stack.login('ops@globex.example', DEMO_PASSWORD);
});
after(() => stack?.close());

const gql = async (token: string, query: string, variables: Record<string, unknown> = {}) => {
  const res = await postGraphQL(stack.platform.urls.graphql, query, { token, variables });
  assert.equal(res.errors, undefined, JSON.stringify(res.errors));
  return res.data as any;
};

/** Drivers placed in the groups an account reaches (its groups and their descendants). */
async function visibleDriverIds(email: string): Promise<string[]> {
  const { rows } = await stack.knex.raw(
    `with recursive reach(id) as (
       select m.group_id from fleet.group_accounts m join fleet.accounts a on a.id = m.account_id where a.email = ?
       union select p.group_id from fleet.group_parents p join reach r on p.parent_id = r.id)
     select distinct gd.driver_id as id from fleet.group_drivers gd join reach r on r.id = gd.group_id`,
    [email],
  );
  return rows.map((r: { id: string }) => r.id);
}

describe('driver and drivers through the gateway', () => {
  test('driver without id is the demo account driver profile; driver by id answers every field', async () => {
    const own = await stack
      .knex('fleet.drivers as d')
      .join('fleet.accounts as a', 'a.id', 'd.user_profile_id')
      .where('a.email', DEMO_EMAIL)
      .first('d.id', 'd.label', 'd.current_vehicle_id');
    const data = await gql(
      demoToken,
      `query($id: ID) {
        me: driver { id label userProfile { email } }
        byId: driver(id: $id) { id label active currentVehicle { id } groups { list { label } }
          lastTrip { id startedAt } trips(pageSize: 3) { count list { id startedAt } } vehicleSessions { count } }
      }`,
      { id: own.id },
    );
    assert.deepEqual(data.me, { id: own.id, label: own.label, userProfile: { email: DEMO_EMAIL } });
    assert.equal(data.byId.id, own.id);
    assert.equal(data.byId.currentVehicle?.id ?? null, own.current_vehicle_id);
    const tripCount = await stack
      .knex('fleet.trips')
      .where('driver_id', own.id)
      .count<{ n: string }[]>('* as n');
    assert.equal(data.byId.trips.count, Number(tripCount[0]!.n));
    if (data.byId.trips.count > 0) {
      assert.equal(data.byId.lastTrip.id, data.byId.trips.list[0].id);
      const starts = data.byId.trips.list.map((t: { startedAt: string }) => t.startedAt);
      assert.deepEqual(starts, [...starts].sort().reverse(), 'newest first');
    }
  });

  test('drivers lists exactly the visible drivers under a sort, and walking next visits each once', async () => {
    const expected = await visibleDriverIds(DEMO_EMAIL);
    assert.ok(expected.length > 10);
    const seen: string[] = [];
    const created: string[] = [];
    let pageId: string | null = null;
    do {
      const data = await gql(
        demoToken,
        `query($p: ID) { drivers(sort: [{ field: CREATED_AT, direction: DESC }], pageSize: 7, pageId: $p) {
          count next list { id createdAt } } }`,
        { p: pageId },
      );
      assert.equal(data.drivers.count, expected.length);
      for (const d of data.drivers.list) {
        seen.push(d.id);
        created.push(d.createdAt);
      }
      pageId = data.drivers.next;
    } while (pageId);
    assert.deepEqual([...seen].sort(), [...expected].sort());
    assert.deepEqual(created, [...created].sort().reverse());
  });

  test('filters combine: an auxiliary badge serial number and active', async () => {
    const badge = await stack
      .knex('fleet.driver_auxiliary_devices as x')
      .join('fleet.drivers as d', 'd.id', 'x.driver_id')
      .join('fleet.organizations as o', 'o.id', 'd.organization_id')
      .where('o.name', 'Acme Logistics')
      .whereNotNull('x.serial_number')
      .first('x.serial_number', 'd.id', 'd.active');
    const data = await gql(
      demoToken,
      `query($s: [String!]!, $a: Boolean) {
        match: drivers(auxiliaryDeviceSerialNumbers: $s, active: $a) { list { id } }
        none: drivers(auxiliaryDeviceSerialNumbers: $s, active: ${badge.active ? 'false' : 'true'}) { count }
      }`,
      { s: [badge.serial_number], a: badge.active },
    );
    assert.deepEqual(data.match.list, [{ id: badge.id }]);
    assert.equal(data.none.count, 0);
  });

  test('an account of another organization gets null and empty lists for Acme drivers and trips', async () => {
    const acme = await stack
      .knex('fleet.drivers as d')
      .join('fleet.organizations as o', 'o.id', 'd.organization_id')
      .where('o.name', 'Acme Logistics')
      .first('d.id');
    const acmeDevice = await stack
      .knex('fleet.trips as t')
      .join('fleet.devices as d', 'd.id', 't.device_id')
      .join('fleet.organizations as o', 'o.id', 'd.organization_id')
      .where('o.name', 'Acme Logistics')
      .first('t.device_id');
    const data = await gql(
      globexToken,
      `query($id: ID, $ids: [ID!], $d: ID!) {
        driver(id: $id) { id }
        drivers(ids: $ids) { count list { id } }
        device(id: $d) { trips { count } }
        all: drivers(pageSize: 500) { list { id } }
      }`,
      { id: acme.id, ids: [acme.id], d: acmeDevice.device_id },
    );
    assert.equal(data.driver, null);
    assert.deepEqual(data.drivers, { count: 0, list: [] });
    assert.equal(data.device, null);
    const globexDrivers = await visibleDriverIds('ops@globex.example');
    assert.deepEqual(data.all.list.map((d: { id: string }) => d.id).sort(), [...globexDrivers].sort());
  });
});

describe('deep trips query through the gateway', () => {
  test('groups -> devices -> currentVehicle -> trips answers the database counts and newest trips', async () => {
    const data = await gql(
      demoToken,
      `{ groups(hierarchyLevels: [DEPOT], pageSize: 3) { list { label
          devices(pageSize: 5) { list { id tripSummary { tripCount distanceKm }
            currentVehicle { id currentDriver { label } trips(pageSize: 2) { count list { id startedAt distanceKm durationSeconds driver { id } device { id } } } } } } } } }`,
    );
    let checked = 0;
    for (const group of data.groups.list) {
      for (const device of group.devices.list) {
        if (!device.currentVehicle) continue;
        const vehicleId = device.currentVehicle.id;
        const rows = await stack
          .knex('fleet.trips')
          .where('vehicle_id', vehicleId)
          .orderBy([
            { column: 'started_at', order: 'desc' },
            { column: 'id', order: 'desc' },
          ])
          .select('id', 'distance_m');
        const trips = device.currentVehicle.trips;
        assert.equal(trips.count, rows.length);
        assert.deepEqual(
          trips.list.map((t: { id: string }) => t.id),
          rows.slice(0, 2).map((r: { id: string }) => r.id),
        );
        for (const trip of trips.list) {
          assert.equal(trip.device.id, device.id);
          assert.ok(trip.durationSeconds > 0 && trip.distanceKm > 0);
        }
        const ofDevice = await stack
          .knex('fleet.trips')
          .where('device_id', device.id)
          .first(stack.knex.raw('count(*)::int as n, coalesce(sum(distance_m), 0)::int as m'));
        assert.equal(device.tripSummary.tripCount, ofDevice.n);
        assert.equal(device.tripSummary.distanceKm, ofDevice.m / 1000);
        checked += 1;
      }
    }
    assert.ok(checked > 3, `only ${checked} devices with a vehicle were checked`);
  });
});

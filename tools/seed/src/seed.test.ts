import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { verifyPassword } from '@fleetgraph/sso';
import { DEMO_EMAIL, DEMO_PASSWORD, isSeeded, seedDemo } from './seed';
import { CITY_CENTRES, hasValidVinCheckDigit, isValidImei } from '@fleetgraph/fleet-core';
import { migratedDatabase, tableCounts, type MigratedDatabase } from './test-helpers';
import { COUNTED_TABLES, type TableCounts } from './counts';

const NOW = new Date('2026-11-22T00:00:00Z');
let first: MigratedDatabase;
let second: MigratedDatabase;

before(async () => {
  [first, second] = await Promise.all([migratedDatabase('seed_a'), migratedDatabase('seed_b')]);
});
after(async () => {
  await Promise.all([first?.drop(), second?.drop()]);
});

/** Every row of every seeded table in a stable order (password hashes differ by salt: left out). */
async function dump(db: MigratedDatabase) {
  const k = db.knex;
  return {
    organizations: await k('fleet.organizations').orderBy('id'),
    accounts: await k('fleet.accounts').orderBy('id'),
    users: await k('sso.users').select('id', 'email', 'full_name', 'language', 'created_at').orderBy('id'),
    groups: await k('fleet.groups').orderBy('id'),
    groupParents: await k('fleet.group_parents').orderBy(['group_id', 'parent_id']),
    groupClosure: await k('fleet.group_closure').orderBy(['ancestor_id', 'descendant_id']),
    groupAccounts: await k('fleet.group_accounts').orderBy(['group_id', 'account_id']),
    products: await k('fleet.products').orderBy('id'),
    devices: await k('fleet.devices').orderBy('id'),
    vehicles: await k('fleet.vehicles').orderBy('id'),
    groupDevices: await k('fleet.group_devices').orderBy(['group_id', 'device_id']),
    groupVehicles: await k('fleet.group_vehicles').orderBy(['group_id', 'vehicle_id']),
    sessions: await k('fleet.device_vehicle_sessions').orderBy('id'),
    drivers: await k('fleet.drivers').orderBy('id'),
    driverSessions: await k('fleet.driver_vehicle_sessions').orderBy('id'),
    auxiliary: await k('fleet.driver_auxiliary_devices').orderBy('id'),
    trips: await k('fleet.trips').orderBy('id'),
    harshes: await k('fleet.trip_harshes').orderBy('id'),
    readings: await k('fleet.readings').orderBy('id'),
  };
}

describe('seedDemo', () => {
  test('an empty database is not seeded; seeding two databases gives identical rows', async () => {
    assert.equal(await isSeeded(first.knex), false);
    const [a, b] = await Promise.all([
      seedDemo(first.knex, { now: NOW }),
      seedDemo(second.knex, { now: NOW }),
    ]);
    assert.equal(await isSeeded(first.knex), true);
    const { durationMs: _a, tripsDurationMs: _ta, tripsPerSecond: _ra, ...countsA } = a;
    const { durationMs: _b, tripsDurationMs: _tb, tripsPerSecond: _rb, ...countsB } = b;
    assert.deepEqual(countsA, countsB);
    assert.deepEqual(await dump(first), await dump(second));
    const expected = Object.fromEntries(
      (Object.keys(COUNTED_TABLES) as Array<keyof TableCounts>).map((key) => [key, a[key]]),
    );
    assert.deepEqual(await tableCounts(first.knex), expected);
    assert.ok(
      a.drivers > 0 && a.trips > 0 && a.tripHarshes > 0 && a.readings > 0 && a.batteryAnnotations > 0,
    );
  });

  test('two organizations; Acme has ~60 devices and vehicles, Globex is smaller', async () => {
    const rows = await first
      .knex('fleet.organizations as o')
      .select('o.name')
      .select(
        first.knex.raw(
          '(select count(*) from fleet.devices d where d.organization_id = o.id)::int as devices',
        ),
      )
      .select(
        first.knex.raw(
          '(select count(*) from fleet.vehicles v where v.organization_id = o.id)::int as vehicles',
        ),
      )
      .orderBy('o.name');
    assert.deepEqual(
      rows.map((r) => r.name),
      ['Acme Logistics', 'Globex Transport'],
    );
    assert.ok(rows[0].devices >= 50 && rows[0].devices <= 70 && rows[0].vehicles >= 50);
    assert.ok(rows[1].devices > 0 && rows[1].devices < rows[0].devices);
  });

  test('the demo account signs in with the demo password, is a member of the root group, and sees root -> depot in the closure', async () => {
    const k = first.knex;
    const user = await k('sso.users').where({ email: DEMO_EMAIL }).first();
    const account = await k('fleet.accounts').where({ email: DEMO_EMAIL }).first();
    assert.equal(user.id, account.id);
    assert.equal(account.full_name, 'Dana Demo');
    assert.ok(await verifyPassword(user.password_hash, DEMO_PASSWORD));
    const groups = await k('fleet.group_accounts as m')
      .join('fleet.groups as g', 'g.id', 'm.group_id')
      .where('m.account_id', account.id)
      .pluck('g.label');
    assert.deepEqual(groups, ['Acme Logistics']);
    const depth = await k('fleet.group_closure as c')
      .join('fleet.groups as a', 'a.id', 'c.ancestor_id')
      .join('fleet.groups as d', 'd.id', 'c.descendant_id')
      .where({ 'a.label': 'Acme Logistics', 'd.label': 'Hamburg Depot' })
      .first('c.depth');
    assert.equal(depth?.depth, 2);
    const levels = await k('fleet.groups').distinct('hierarchy_level').pluck('hierarchy_level');
    assert.deepEqual(levels.sort(), ['COMPANY', 'DEPOT', 'REGION', 'TEAM', 'UNASSIGNED']);

    const north = await k('fleet.accounts as a')
      .join('fleet.group_accounts as m', 'm.account_id', 'a.id')
      .join('fleet.groups as g', 'g.id', 'm.group_id')
      .where('a.email', 'dispatcher.north@acme.example')
      .pluck('g.label');
    assert.deepEqual(north, ['North']);
    const globex = await k('sso.users').where({ email: 'ops@globex.example' }).first();
    assert.ok(await verifyPassword(globex.password_hash, DEMO_PASSWORD));
  });

  test('devices and vehicles are well formed: IMEIs, VINs, placement, sessions matching the current vehicle', async () => {
    const k = first.knex;
    const devices = await k('fleet.devices');
    for (const d of devices) assert.ok(isValidImei(d.id), d.id);
    const vins = await k('fleet.vehicles').pluck('vin');
    for (const vin of vins) assert.ok(hasValidVinCheckDigit(vin), vin);
    assert.equal(new Set(vins).size, vins.length);
    const [unplaced] = await k
      .raw(
        `select count(*)::int as n from fleet.devices d where not exists (select 1 from fleet.group_devices g where g.device_id = d.id)`,
      )
      .then((r) => r.rows);
    assert.equal(unplaced.n, 0);
    const linked = devices.filter((d) => d.current_vehicle_id);
    assert.ok(linked.length > devices.length * 0.7, 'most devices are in a vehicle');
    const open = await k('fleet.device_vehicle_sessions').whereNull('ended_at');
    assert.equal(open.length, linked.length);
    const byDevice = new Map(open.map((s) => [s.device_id, s.vehicle_id]));
    for (const d of linked) assert.equal(byDevice.get(d.id), d.current_vehicle_id);
    const { rows } = await k.raw(
      `select count(*)::int as n from fleet.device_vehicle_sessions where ended_at is not null and ended_at <= started_at`,
    );
    assert.equal(rows[0].n, 0);
    const crossTenant = await k.raw(
      `select count(*)::int as n from fleet.devices d join fleet.vehicles v on v.id = d.current_vehicle_id where v.organization_id <> d.organization_id`,
    );
    assert.equal(crossTenant.rows[0].n, 0);
  });

  test('trips are plausible: consistent distance, duration and speeds, near a depot city, in sequence, with the vehicle driver', async () => {
    const k = first.knex;
    const one = async (sql: string) => Number((await k.raw(sql)).rows[0].n);
    const total = await one('select count(*) as n from fleet.trips');
    assert.ok(total > 1000, `expected thousands of trips, got ${total}`);
    // Average speed between 8 and 100 km/h, and never above the maximum speed.
    assert.equal(
      await one(`select count(*) as n from fleet.trips t,
        lateral (select t.distance_m / 1000.0 / (extract(epoch from t.ended_at - t.started_at) / 3600) as kmh) s
        where s.kmh < 8 or s.kmh > 100 or s.kmh > t.max_speed_kmh or t.idle_s >= extract(epoch from t.ended_at - t.started_at)`),
      0,
    );
    // Road distance at least the straight line (1 degree of latitude is 111 km).
    assert.equal(
      await one(`select count(*) as n from fleet.trips t
        where t.distance_m / 1000.0 < 111.0 * sqrt(power(t.end_latitude - t.start_latitude, 2)
          + power((t.end_longitude - t.start_longitude) * cos(radians(t.start_latitude)), 2))`),
      0,
    );
    // Within 100 km of one of the depot cities.
    const centres = Object.values(CITY_CENTRES)
      .map(([lat, lon]) => `(${lat}, ${lon})`)
      .join(', ');
    assert.equal(
      await one(`select count(*) as n from fleet.trips t where not exists (
        select 1 from (values ${centres}) c(lat, lon)
        where 111.0 * sqrt(power(t.start_latitude - c.lat, 2) + power((t.start_longitude - c.lon) * cos(radians(c.lat)), 2)) < 100)`),
      0,
    );
    // A device's trips do not overlap, and each starts where (and at the address) the previous one ended.
    assert.equal(
      await one(`select count(*) as n from (
        select started_at, start_latitude, start_longitude, start_address,
               lag(ended_at) over w as prev_end, lag(end_latitude) over w as prev_lat, lag(end_longitude) over w as prev_lon,
               lag(end_address) over w as prev_address
          from fleet.trips window w as (partition by device_id order by started_at)) x
        where prev_end is not null and (started_at <= prev_end or start_latitude <> prev_lat
          or start_longitude <> prev_lon or start_address <> prev_address)`),
      0,
    );
    // Every trip has street addresses in the format of its country.
    assert.equal(
      await one(`select count(*) as n from fleet.trips
        where start_address is null or end_address is null
           or start_address !~ '^(\\D+ \\d+, \\d{5} \\D+|\\d+ \\D+, \\d{5} \\D+)$'
           or end_address !~ '^(\\D+ \\d+, \\d{5} \\D+|\\d+ \\D+, \\d{5} \\D+)$'`),
      0,
    );
    // The trip's vehicle is the device's vehicle; its driver the vehicle's driver.
    assert.equal(
      await one(`select count(*) as n from fleet.trips t join fleet.devices d on d.id = t.device_id
        where t.vehicle_id is distinct from d.current_vehicle_id
           or (t.driver_id is not null and not exists (select 1 from fleet.drivers r where r.id = t.driver_id and r.default_vehicle_id = t.vehicle_id))`),
      0,
    );
    // Harsh events and overspeeds happen during their trip; the last position is the end of the last trip.
    assert.equal(
      await one(`select count(*) as n from fleet.trip_harshes h join fleet.trips t on t.id = h.trip_id
        where h.occurred_at < t.started_at or h.occurred_at > t.ended_at or h.device_id <> t.device_id`),
      0,
    );
    assert.equal(
      await one(`select count(*) as n from fleet.trip_overspeeds o join fleet.trips t on t.id = o.trip_id
        where o.started_at < t.started_at or o.max_speed_kmh <= o.speed_limit_kmh`),
      0,
    );
    assert.equal(
      await one(`select count(*) as n from fleet.devices d
        cross join lateral (select * from fleet.trips t where t.device_id = d.id order by started_at desc limit 1) t
        where d.last_latitude <> t.end_latitude or d.last_longitude <> t.end_longitude`),
      0,
    );
    // Drivers: placed in a group, the demo account has a driver profile.
    assert.equal(
      await one(
        `select count(*) as n from fleet.drivers r where not exists (select 1 from fleet.group_drivers g where g.driver_id = r.id)`,
      ),
      0,
    );
    assert.equal(
      await one(
        `select count(*) as n from fleet.drivers r join fleet.accounts a on a.id = r.user_profile_id where a.email = '${DEMO_EMAIL}'`,
      ),
      1,
    );
  });

  test('seeding refuses a database that already holds data, and writes nothing', async () => {
    const before = await tableCounts(first.knex);
    await assert.rejects(
      seedDemo(first.knex, { now: NOW }),
      /refusing to seed: fleet\.organizations is not empty/,
    );
    assert.deepEqual(await tableCounts(first.knex), before);
  });

  test('scale multiplies the data, written in batches (statements far fewer than rows)', async () => {
    const db = await migratedDatabase('seed_scale');
    let statements = 0;
    const count = () => (statements += 1);
    db.knex.on('query', count);
    try {
      const summary = await seedDemo(db.knex, { scale: 10, now: NOW, tripsPerDevice: 20 });
      db.knex.off('query', count);
      assert.equal(summary.devices, 750);
      assert.ok(summary.groups > 100);
      const rows = Object.values(await tableCounts(db.knex)).reduce((sum, n) => sum + n, 0);
      assert.ok(rows > 20_000, `${rows} rows`);
      assert.ok(statements * 20 < rows, `${statements} statements for ${rows} rows`);
      await assert.rejects(seedDemo(db.knex, { scale: 0 }), /scale must be an integer/);
    } finally {
      await db.drop();
    }
  });
});

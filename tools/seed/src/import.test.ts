import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { verifyPassword } from '@fleetgraph/sso';
import { ImportError, importDataset, validateDataset } from './import';
import { migratedDatabase, tableCounts, type MigratedDatabase } from './test-helpers';

const example = JSON.parse(readFileSync(new URL('../examples/small-fleet.json', import.meta.url), 'utf8'));
const copy = () => structuredClone(example);
let db: MigratedDatabase;

before(async () => {
  db = await migratedDatabase('seed_import');
});
after(async () => {
  await db?.drop();
});

async function problemsOf(input: unknown): Promise<string[]> {
  const error = await importDataset(db.knex, input).then(
    () => assert.fail('the import should have been refused'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof ImportError, String(error));
  return error.problems;
}

describe('importDataset', () => {
  test('an invalid dataset is refused with every problem and its path, and nothing is written', async () => {
    const before = await tableCounts(db.knex);
    const bad = copy();
    const org = bad.organizations[0];
    org.devices[0].owner = 'x@y.example';
    org.devices[1].groups = ['Nowhere'];
    org.devices[2].id = org.devices[3].id;
    org.groups[0].parents = ['Antwerp Bikes'];
    org.vehicles[0].fuelType = 'STEAM';
    org.devices[4].status = 'ASLEEP';
    org.accounts.push({
      email: 'OWNER@initech.example',
      password: 'another-password',
      fullName: 'Peter Copy',
    });
    org.devices[1].currentVehicle = 'NO-SUCH-PLATE';

    const problems = await problemsOf(bad);
    const expected: Array<[string, RegExp]> = [
      ['organizations[0].devices[0].owner', /unknown account "x@y.example"/],
      ['organizations[0].devices[1].groups[0]', /unknown group "Nowhere"/],
      [
        'organizations[0].devices[3].id',
        /duplicate device id "356938109001041" \(also at organizations\[0\]\.devices\[2\]\.id\)/,
      ],
      [
        'organizations[0].groups[0].parents',
        /cycle in the group hierarchy: Initech Couriers -> Antwerp Bikes -> Antwerp Depot -> Initech Couriers/,
      ],
      ['organizations[0].vehicles[0].fuelType', /invalid fuelType "STEAM": expected one of GASOLINE, DIESEL/],
      ['organizations[0].devices[4].status', /invalid status "ASLEEP"/],
      [
        'organizations[0].accounts[2].email',
        /duplicate email "owner@initech.example" \(also at organizations\[0\]\.accounts\[0\]\.email\)/,
      ],
      ['organizations[0].devices[1].currentVehicle', /unknown vehicle "NO-SUCH-PLATE"/],
    ];
    for (const [path, message] of expected) {
      assert.ok(
        problems.some((p) => p.startsWith(`${path}: `) && message.test(p)),
        `expected a problem at ${path} matching ${message}; got:\n${problems.join('\n')}`,
      );
    }
    assert.equal(problems.length, expected.length, problems.join('\n'));
    assert.deepEqual(await tableCounts(db.knex), before);
  });

  test('shape problems: missing fields, unknown keys, bad IMEI, not an object', async () => {
    const bad = copy();
    delete bad.organizations[0].accounts[0].fullName;
    bad.organizations[0].vehicles[0].colour = 'White';
    bad.organizations[0].devices[0].id = '356938109001018';
    const problems = await problemsOf(bad);
    assert.ok(
      problems.some((p) => p.startsWith('organizations[0].accounts[0].fullName: ')),
      problems.join('\n'),
    );
    assert.ok(
      problems.some((p) => p.startsWith('organizations[0].vehicles[0]: ') && /colour/.test(p)),
      problems.join('\n'),
    );
    assert.ok(
      problems.some((p) => p.startsWith('organizations[0].devices[0].id: invalid IMEI')),
      problems.join('\n'),
    );
    assert.ok((await problemsOf(null)).length > 0);
    assert.deepEqual(await validateDataset(db.knex, copy()), []);
  });

  test('the example dataset imports: counts, hierarchy, sessions, and passwords that verify', async () => {
    const summary = await importDataset(db.knex, copy());
    assert.equal(summary.imported.length, 1);
    assert.equal(summary.imported[0]!.name, 'Initech Couriers');
    const { imported: _i, durationMs: _d, services: _s, ...counts } = summary;
    assert.deepEqual(counts, {
      organizations: 1,
      accounts: 2,
      users: 2,
      groups: 4,
      groupParents: 3,
      groupClosure: 8,
      groupAccounts: 2,
      products: 1,
      vehicles: 4,
      devices: 5,
      groupDevices: 5,
      groupVehicles: 4,
      deviceVehicleSessions: 5,
      drivers: 2,
      groupDrivers: 2,
      driverAuxiliaryDevices: 2,
      driverVehicleSessions: 2,
      trips: 3,
      tripHarshes: 2,
      tripOverspeeds: 2,
      tripMetadata: 3,
      deviceHistory: 9,
      deviceFields: 5,
      readings: 9,
      batteryAnnotations: 5,
    });
    assert.deepEqual(await tableCounts(db.knex), counts);

    const k = db.knex;
    for (const { email, password } of example.organizations[0].accounts) {
      const user = await k('sso.users').where({ email }).first();
      const account = await k('fleet.accounts').where({ email }).first();
      assert.equal(user.id, account.id);
      assert.ok(await verifyPassword(user.password_hash, password), email);
      assert.ok(!(await verifyPassword(user.password_hash, 'wrong-password')));
    }
    const reach = await k('fleet.group_closure as c')
      .join('fleet.groups as a', 'a.id', 'c.ancestor_id')
      .join('fleet.groups as d', 'd.id', 'c.descendant_id')
      .where({ 'a.label': 'Initech Couriers', 'd.label': 'Antwerp Bikes' })
      .first('c.depth');
    assert.equal(reach?.depth, 2);
    const device = await k('fleet.devices').where({ id: '356938109001017' }).first();
    const vehicle = await k('fleet.vehicles').where({ vin: 'WF0XXTTG3NK412345' }).first();
    assert.equal(device.current_vehicle_id, vehicle.id);
    const open = await k('fleet.device_vehicle_sessions')
      .whereNull('ended_at')
      .where({ device_id: device.id });
    assert.deepEqual(
      open.map((s) => s.vehicle_id),
      [vehicle.id],
    );
    const never = await k('fleet.devices').where({ id: '356938109001058' }).first();
    assert.equal(never.status, 'NEVER_CONNECTED');
    const luc = await k('fleet.drivers').where({ id_key: 'BE-D-0001' }).first();
    assert.equal(luc.current_vehicle_id, vehicle.id);
    const trips = await k('fleet.trips').where({ device_id: device.id }).orderBy('started_at');
    assert.deepEqual(
      trips.map((t) => [t.driver_id, t.vehicle_id, t.distance_m]),
      [
        [luc.id, vehicle.id, 14200],
        [luc.id, vehicle.id, 31500],
        [null, vehicle.id, 33100],
      ],
    );
  });

  test('invalid drivers and trips: every problem listed with its path, nothing written', async () => {
    const before = await tableCounts(db.knex);
    const bad = copy();
    const org = bad.organizations[0];
    org.drivers[1].idKey = 'BE-D-0001';
    org.drivers[1].groups = ['Nowhere'];
    org.drivers[0].currentVehicle = 'NO-SUCH-PLATE';
    org.drivers[0].userProfile = 'ghost@initech.example';
    org.drivers[0].auxiliaryDevices.push({ kind: 'BADGE' });
    org.drivers[0].vehicleSessions[0].endedAt = '2025-01-01T00:00:00Z';
    org.trips[0].device = '490154203237518';
    org.trips[0].driver = 'Nobody';
    org.trips[1].endedAt = '2026-11-20T09:00:00Z';
    org.trips[2].maxSpeedKmh = 20;
    org.trips[2].start.latitude = 95;
    org.trips.push({
      ...structuredClone(example.organizations[0].trips[2]),
      startedAt: '2026-11-20T16:30:00Z',
    });
    org.trips.push({
      ...structuredClone(example.organizations[0].trips[0]),
      idleSeconds: 99999,
      distanceKm: 900,
    });
    const problems = await problemsOf(bad);
    const expect = (pattern: RegExp) =>
      assert.ok(
        problems.some((p) => pattern.test(p)),
        `missing ${pattern}:\n${problems.join('\n')}`,
      );
    expect(/^organizations\[0\]\.drivers\[1\]\.idKey: duplicate driver idKey "BE-D-0001"/);
    expect(/^organizations\[0\]\.drivers\[1\]\.groups\[0\]: unknown group "Nowhere"/);
    expect(/^organizations\[0\]\.drivers\[0\]\.currentVehicle: unknown vehicle "NO-SUCH-PLATE"/);
    expect(/^organizations\[0\]\.drivers\[0\]\.userProfile: unknown account "ghost@initech\.example"/);
    expect(/^organizations\[0\]\.drivers\[0\]\.auxiliaryDevices\[2\]: an auxiliary device needs/);
    expect(
      /^organizations\[0\]\.drivers\[0\]\.vehicleSessions\[0\]\.endedAt: a session cannot end before it starts/,
    );
    expect(/^organizations\[0\]\.trips\[0\]\.device: unknown device "490154203237518"/);
    expect(/^organizations\[0\]\.trips\[0\]\.driver: unknown driver "Nobody"/);
    expect(/^organizations\[0\]\.trips\[1\]\.endedAt: a trip cannot end before it starts/);
    expect(/^organizations\[0\]\.trips\[2\]\.maxSpeedKmh: maxSpeedKmh 20 is below the average speed/);
    expect(/^organizations\[0\]\.trips\[2\]\.start\.latitude: latitude must be between -90 and 90/);
    expect(/^organizations\[0\]\.trips\[3\]: overlaps organizations\[0\]\.trips\[2\]/);
    expect(
      /^organizations\[0\]\.trips\[4\]\.distanceKm: 900 km in 2160 s is an average of more than 250 km\/h/,
    );
    expect(/^organizations\[0\]\.trips\[4\]\.idleSeconds: idleSeconds is longer than the trip/);
    assert.deepEqual(await tableCounts(db.knex), before);
  });

  test('importing the same file again conflicts with the database and writes nothing', async () => {
    const before = await tableCounts(db.knex);
    const problems = await problemsOf(copy());
    assert.ok(
      problems.some((p) =>
        /^organizations\[0\]\.accounts\[0\]\.email: account with email "owner@initech\.example" already exists/.test(
          p,
        ),
      ),
    );
    assert.ok(
      problems.some((p) =>
        /^organizations\[0\]\.devices\[0\]\.id: device id "356938109001017" already exists/.test(p),
      ),
    );
    assert.ok(
      problems.some((p) => /^products\[0\]\.name: product "CityTracker LTE-M" already exists/.test(p)),
    );
    assert.deepEqual(await tableCounts(db.knex), before);

    // Another organization may use the product of the database by name.
    const next = {
      organizations: [
        {
          name: 'Hooli Vans',
          accounts: [{ email: 'ops@hooli.example', password: 'hooli-vans-1', fullName: 'Gavin Belson' }],
          groups: [{ label: 'Hooli', hierarchyLevel: 'COMPANY', members: ['ops@hooli.example'] }],
          devices: [
            {
              id: '490154203237518',
              deviceType: 'OBD_DONGLE',
              product: 'CityTracker LTE-M',
              groups: ['Hooli'],
            },
          ],
        },
      ],
    };
    const summary = await importDataset(db.knex, next);
    assert.equal(summary.devices, 1);
    assert.equal(summary.products, 0);
  });
});

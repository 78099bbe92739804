import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { verifyPassword } from '@fleetgraph/sso';
import { DEMO_EMAIL, DEMO_PASSWORD, isSeeded, seedDemo } from './seed';
import { hasValidVinCheckDigit, isValidImei } from './ids';
import { migratedDatabase, tableCounts, type MigratedDatabase } from './test-helpers';

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
    const { durationMs: _a, ...countsA } = a;
    const { durationMs: _b, ...countsB } = b;
    assert.deepEqual(countsA, countsB);
    assert.deepEqual(await dump(first), await dump(second));
    assert.deepEqual(await tableCounts(first.knex), {
      organizations: a.organizations,
      accounts: a.accounts,
      users: a.users,
      groups: a.groups,
      groupParents: a.groupParents,
      groupClosure: a.groupClosure,
      groupAccounts: a.groupAccounts,
      products: a.products,
      vehicles: a.vehicles,
      devices: a.devices,
      groupDevices: a.groupDevices,
      groupVehicles: a.groupVehicles,
      deviceVehicleSessions: a.deviceVehicleSessions,
    });
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

  test('seeding refuses a database that already holds data, and writes nothing', async () => {
    const before = await tableCounts(first.knex);
    await assert.rejects(
      seedDemo(first.knex, { now: NOW }),
      /refusing to seed: fleet\.organizations is not empty/,
    );
    assert.deepEqual(await tableCounts(first.knex), before);
  });

  test('scale multiplies the data and stays fast (batched inserts)', async () => {
    const db = await migratedDatabase('seed_scale');
    try {
      const started = Date.now();
      const summary = await seedDemo(db.knex, { scale: 10, now: NOW });
      assert.equal(summary.devices, 750);
      assert.ok(summary.groups > 100);
      assert.ok(Date.now() - started < 30_000);
      await assert.rejects(seedDemo(db.knex, { scale: 0 }), /scale must be an integer/);
    } finally {
      await db.drop();
    }
  });
});

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { DemoSeedResult } from '@fleetgraph/subgraph-kit';
import manifest from '../manifest';
import { DEMO_EMAIL, DEMO_PASSWORD, seedDemo } from './seed';
import { LOGFETCH_ACTIONS, METRICS } from './services';
import { fleetDatabase, type FleetDatabase } from './test-support';

const NOW = new Date('2026-11-22T00:00:00Z');
let first: FleetDatabase;
let second: FleetDatabase;
let hooked: DemoSeedResult | void;

before(async () => {
  [first, second] = await Promise.all([fleetDatabase('seed_services_a'), fleetDatabase('seed_services_b')]);
  // The second database is seeded through the manifest's hook: the same rows as a direct seed.
  const context = { now: NOW, scale: 1, progress: false, log: () => {} };
  [, hooked] = await Promise.all([
    seedDemo(first.knex, { now: NOW }),
    manifest.demoData!.seed(second.knex, context),
  ]);
});
after(async () => {
  await Promise.all([first?.drop(), second?.drop()]);
});

const TABLES = [
  'account_roles',
  'account_alert_preferences',
  'descriptions',
  'alert_templates',
  'alert_attachments',
  'vehicle_alerts',
  'vehicle_alert_feedbacks',
  'workshops',
  'organization_workshops',
  'driver_services',
  'driver_service_workshops',
  'bookings',
  'onboarding_providers',
  'onboarding_distributors',
  'onboarding_staff',
  'onboarding_requests',
  'client_identifications',
  'campaigns',
  'campaign_devices',
  'metrics',
  'logfetch_actions',
  'device_log_fetches',
  'device_remote_diags',
  'device_profile_privacies',
  'device_profile_modes',
  'lpa_operations',
];

describe('the demoData hook', () => {
  test('reports seeded, hands back every account as a login (no SSO write) and counts by table', async () => {
    assert.equal(await manifest.demoData!.isSeeded(second.knex), true);
    const logins = hooked?.logins ?? [];
    const accounts = await second.knex('fleet.accounts').select('id', 'email', 'full_name');
    assert.equal(logins.length, accounts.length);
    const demo = logins.find((l) => l.email === DEMO_EMAIL);
    assert.equal(demo?.password, DEMO_PASSWORD);
    assert.equal(demo?.uid, accounts.find((a) => a.email === DEMO_EMAIL)?.id);
    assert.equal(hooked?.counts?.['fleet.accounts'], accounts.length);
    assert.equal(await second.knex.schema.withSchema('sso').hasTable('users'), false);
  });
});

describe('services demo data', () => {
  test('every services table has rows for both organizations, identical on every run', async () => {
    for (const table of TABLES) {
      const rowsA = await first.knex(`fleet.${table}`).select('*');
      assert.ok(rowsA.length > 0, `fleet.${table} is empty`);
      const order = Object.keys(rowsA[0]!).slice(0, 2);
      const sort = (rows: Record<string, unknown>[]) =>
        rows.map((r) => JSON.stringify(r)).sort((a, b) => a.localeCompare(b));
      const rowsB = await second.knex(`fleet.${table}`).select('*').orderBy(order);
      assert.deepEqual(sort(rowsA), sort(rowsB), `fleet.${table} differs between two seeds`);
    }
    const k = first.knex;
    for (const table of [
      'alert_templates',
      'bookings',
      'campaigns',
      'onboarding_distributors',
      'driver_services',
    ]) {
      const orgs = await k(`fleet.${table}`).countDistinct('organization_id as n').first();
      assert.equal(Number(orgs!.n), 2, `fleet.${table} covers both organizations`);
    }
    assert.equal(Number((await k('fleet.metrics').count('* as n').first())!.n), METRICS.length);
    assert.equal(
      Number((await k('fleet.logfetch_actions').count('* as n').first())!.n),
      LOGFETCH_ACTIONS.length,
    );
  });

  test('references stay inside their organization and rows are plausible', async () => {
    const k = first.knex;
    const crossAlerts = await k.raw(`select count(*)::int as n from fleet.vehicle_alerts a
      join fleet.devices d on d.id = a.device_id where d.organization_id <> a.organization_id`);
    assert.equal(crossAlerts.rows[0].n, 0);
    const crossBookings = await k.raw(`select count(*)::int as n from fleet.bookings b
      join fleet.accounts a on a.id = b.account_id join fleet.vehicles v on v.id = b.vehicle_id
      where a.organization_id <> b.organization_id or v.organization_id <> b.organization_id
         or b.user_email <> a.email or b.plate_number is distinct from v.plate`);
    assert.equal(crossBookings.rows[0].n, 0);
    const future = await k.raw(
      `select count(*)::int as n from fleet.vehicle_alerts where started_at > ? or ended_at < started_at`,
      [NOW],
    );
    assert.equal(future.rows[0].n, 0);
    const currentPrivacy = await k.raw(`select count(*)::int as n from fleet.devices d where
      (select count(*) from fleet.device_profile_privacies p where p.device_id = d.id and p.ended_at is null) <> 1`);
    assert.equal(currentPrivacy.rows[0].n, 0, 'every device has exactly one current privacy level');
    const roles =
      await k.raw(`select r.role from fleet.account_roles r join fleet.accounts a on a.id = r.account_id
      where a.email = 'demo@fleetgraph.dev' order by r.role`);
    assert.deepEqual(
      roles.rows.map((r: { role: string }) => r.role),
      ['ADMIN', 'BILLING', 'FLEET_MANAGER'],
    );
    const lpa = await k('fleet.lpa_operations').select(
      'function_name',
      'iccid',
      'activation_code',
      'smdp_address',
      'matching_id',
      'nickname',
    );
    assert.deepEqual([...new Set(lpa.map((row) => row.function_name))].sort(), [
      'DOWNLOAD_AND_ENABLE_PROFILE',
      'DOWNLOAD_PROFILE',
      'SET_NICKNAME',
    ]);
    for (const row of lpa) {
      assert.match(row.iccid, /^\d{18,21}[\dF]$/);
      // A download names its profile by activation code or by SM-DP+ address and matching id.
      if (row.function_name.startsWith('DOWNLOAD')) {
        if (row.activation_code) assert.match(row.activation_code, /^LPA:1\$[^$]+\$[^$]+$/);
        else assert.ok(row.smdp_address && row.matching_id, JSON.stringify(row));
      }
      if (row.function_name === 'SET_NICKNAME') assert.ok(row.nickname);
    }
  });
});

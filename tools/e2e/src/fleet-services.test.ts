/**
 * fleet-core's services domains end to end: password grant at the real SSO -> gateway ->
 * fleet-core -> PostgreSQL, on the seeded demo data; answers are checked against the database.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { postGraphQL } from '@fleetgraph/testing';
import { DEMO_EMAIL, DEMO_PASSWORD } from '@fleetgraph/seed';
import { startStack, type Stack } from './stack';

let stack: Stack;
before(async () => {
  stack = await startStack('e2e_fleet_services');
});
after(() => stack?.close());

const query = async (email: string, document: string, variables: Record<string, unknown> = {}) => {
  const token = await stack.login(email, DEMO_PASSWORD);
  const res = await postGraphQL(stack.platform.urls.graphql, document, { token, variables });
  assert.equal(res.errors, undefined, JSON.stringify(res.errors));
  return res.data as any;
};
const orgOf = async (email: string) =>
  (await stack.knex('fleet.accounts').where({ email }).first('organization_id', 'id')) as {
    organization_id: string;
    id: string;
  };

describe('services queries through the gateway', () => {
  test('organization catalogs: alert templates, campaigns, distributors, driver services, client identifications', async () => {
    const demo = await orgOf(DEMO_EMAIL);
    const data = await query(
      DEMO_EMAIL,
      `{ alertTemplates { count list { name attachments { count } } }
         campaigns(archived: true) { count list { name status devicesStatus { deviceId } } }
         distributors { count list { label staff { count } provider { code } } }
         driverServices { count list { label workshops { count } } }
         clientIdentifications(revoked: false) { count }
         metrics(rawUnit: true) { count }
         logfetchActions { list { id } } }`,
    );
    const count = async (table: string, where: Record<string, unknown> = {}) =>
      Number(
        (
          (await stack
            .knex(`fleet.${table}`)
            .where({ organization_id: demo.organization_id, ...where })
            .count('* as n')
            .first()) as {
            n: string;
          }
        ).n,
      );
    assert.equal(data.alertTemplates.count, await count('alert_templates'));
    assert.ok(data.alertTemplates.count > 0);
    const email = data.alertTemplates.list.find((t: { name: string }) => t.name === 'battery-low-email');
    assert.equal(email.attachments.count, 2);
    assert.equal(data.campaigns.count, await count('campaigns'));
    assert.equal(data.distributors.count, await count('onboarding_distributors'));
    assert.equal(data.driverServices.count, await count('driver_services'));
    assert.equal(data.clientIdentifications.count, await count('client_identifications', { revoked: false }));
    const rawUnits = await stack.knex.raw(
      'select count(*)::int as n from fleet.metrics where raw_unit is not null and raw_unit is distinct from unit',
    );
    assert.equal(data.metrics.count, rawUnits.rows[0].n);
    assert.equal(data.logfetchActions.list[0].id, 'SYSTEM_LOGS');
  });

  test('bookings: an ADMIN reads personal data, a DISPATCHER only on its own bookings', async () => {
    const admin = await query(DEMO_EMAIL, '{ bookings(pageSize: 100) { count list { id userEmail } } }');
    assert.ok(admin.bookings.count > 0);
    assert.ok(admin.bookings.list.every((b: { userEmail: string | null }) => b.userEmail !== null));

    const dispatcherEmail = 'dispatcher.north@acme.example';
    const dispatcher = await orgOf(dispatcherEmail);
    const res = await query(dispatcherEmail, '{ bookings(pageSize: 100) { list { id userEmail } } }');
    const own = new Set(
      (await stack.knex('fleet.bookings').where({ account_id: dispatcher.id }).pluck('id')) as string[],
    );
    for (const booking of res.bookings.list as { id: string; userEmail: string | null }[]) {
      assert.equal(booking.userEmail === null, !own.has(booking.id), booking.id);
    }
    const visible = await stack.knex.raw(
      `with recursive reach(id) as (select group_id from fleet.group_accounts where account_id = ?
         union select p.group_id from fleet.group_parents p join reach r on p.parent_id = r.id)
       select count(*)::int as n from fleet.bookings b where b.organization_id = ? and (b.account_id = ?
         or b.vehicle_id in (select gv.vehicle_id from fleet.group_vehicles gv join reach r on r.id = gv.group_id))`,
      [dispatcher.id, dispatcher.organization_id, dispatcher.id],
    );
    assert.equal(res.bookings.list.length, visible.rows[0].n);
  });

  test('device alerts, alert state and diagnostics of a seeded device; another organization gets null', async () => {
    const [row] = await stack
      .knex('fleet.vehicle_alerts')
      .select('device_id')
      .groupBy('device_id')
      .orderBy('device_id')
      .limit(1)
      .whereIn(
        'organization_id',
        stack.knex('fleet.accounts').select('organization_id').where({ email: DEMO_EMAIL }),
      );
    const imei = (row as { device_id: string }).device_id;
    const document = `query($imei: ID!) { device(id: $imei) { alerts { count list { type startedAt } }
      alertsState { totalCount activeCount } profilePrivacy { level } profileMode { mode } descriptions { count } } }`;
    const data = await query(DEMO_EMAIL, document, { imei });
    const total = await stack.knex('fleet.vehicle_alerts').where({ device_id: imei }).count('* as n').first();
    assert.equal(data.device.alerts.count, Number((total as { n: string }).n));
    assert.equal(data.device.alertsState.totalCount, data.device.alerts.count);
    const starts = data.device.alerts.list.map((a: { startedAt: string }) => a.startedAt);
    assert.deepEqual(starts, [...starts].sort().reverse(), 'newest first');
    assert.ok(data.device.profilePrivacy.level);
    assert.ok(data.device.profileMode.mode);

    const globex = await query('ops@globex.example', document, { imei });
    assert.equal(globex.device, null);
    const templates = await query(
      'ops@globex.example',
      '{ alertTemplates { list { id } } bookings { list { id } } }',
    );
    const acmeTemplates = new Set(
      (await stack
        .knex('fleet.alert_templates')
        .whereNot('organization_id', (await orgOf('ops@globex.example')).organization_id)
        .pluck('id')) as string[],
    );
    assert.ok(templates.alertTemplates.list.length > 0);
    assert.ok(templates.alertTemplates.list.every((t: { id: string }) => !acmeTemplates.has(t.id)));
  });
});

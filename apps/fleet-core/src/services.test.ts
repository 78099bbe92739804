/**
 * Services domains over HTTP against PostgreSQL: every root query and argument, every nested
 * field, with the known rows of testing/services-fixture.ts.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { F } from './testing/fixture';
import { S } from './testing/services-fixture';
import { startHarness, type Harness } from './testing/harness';
import * as tables from './data/tables';
import type { TableSpec } from './data/tables';
import * as servicesTables from './data/services/tables';
import * as keysetTimesMs from '../migrations/20261122_005_keyset_times_ms';

let h: Harness;
before(async () => {
  h = await startHarness('fleet_services');
});
after(() => h.close());

const ok = (res: { errors?: unknown; data?: any }) => {
  assert.equal(res.errors, undefined, JSON.stringify(res.errors));
  assert.ok(res.data, 'the query returned data');
  return res.data;
};
const d0 = () => F.depotDevices[0]!;

describe('descriptions', () => {
  test('description(subject, id) finds a description of a visible subject and only of that subject kind', async () => {
    const q = h.as(F.alice);
    const data = ok(
      await q(
        `query($a: ID!, $d: ID!) {
          mine: description(subject: ACCOUNT, id: $a) { id label value source createdAt updatedAt }
          wrongKind: description(subject: GROUP, id: $a) { id }
          device: description(subject: DEVICE, id: $d) { label value }
          missing: description(subject: DEVICE, id: "nope") { id }
        }`,
        { a: S.descriptions.alice, d: S.descriptions.device },
      ),
    );
    assert.deepEqual(data.mine, {
      id: S.descriptions.alice,
      label: 'Cost centre',
      value: 'CC-100',
      source: 'MANUAL',
      createdAt: '2026-10-21T12:00:00.000Z',
      updatedAt: '2026-11-18T12:00:00.000Z',
    });
    assert.equal(data.wrongKind, null);
    assert.deepEqual(data.device, { label: 'Installer', value: 'Garage Nord' });
    assert.equal(data.missing, null);
  });

  test('a member of a sub-group does not get descriptions of subjects above it', async () => {
    const data = ok(
      await h.as(F.bob)(
        `query($hq: ID!, $depot: ID!) {
        hq: description(subject: GROUP, id: $hq) { id }
        depot: description(subject: GROUP, id: $depot) { value }
      }`,
        { hq: S.descriptions.hq, depot: S.descriptions.depotA },
      ),
    );
    assert.deepEqual(data, { hq: null, depot: { value: 'Hafenstrasse 1, Hamburg' } });
  });

  test('descriptions of accounts, groups, devices and vehicles, by label, paged', async () => {
    const data = ok(
      await h.as(F.alice)(
        `query($g: ID!, $d: ID!) {
          account { descriptions { count list { label value } } }
          group(id: $g) { descriptions(pageSize: 1) { count next list { label } } }
          device(id: $d) { descriptions { list { label } } }
          vehicles: group(id: $g) { vehicles { list { id descriptions { list { value } } } } }
          vehicle: devices(ids: [$d]) { list { currentVehicle { id } } }
        }`,
        { g: F.groups.depot, d: d0() },
      ),
    );
    assert.deepEqual(data.account.descriptions, {
      count: 1,
      list: [{ label: 'Cost centre', value: 'CC-100' }],
    });
    assert.equal(data.group.descriptions.count, 2);
    assert.deepEqual(data.group.descriptions.list, [{ label: 'Address' }]);
    assert.ok(data.group.descriptions.next);
    const second = ok(
      await h.as(F.alice)(
        `query($g: ID!, $p: ID) { group(id: $g) { descriptions(pageId: $p) { next list { label } } } }`,
        {
          g: F.groups.depot,
          p: data.group.descriptions.next,
        },
      ),
    );
    assert.deepEqual(second.group.descriptions, { next: null, list: [{ label: 'Manager' }] });
    assert.deepEqual(data.device.descriptions.list, [{ label: 'Cable' }, { label: 'Installer' }]);
    const vehicle = data.vehicles.vehicles.list.find((v: { id: string }) => v.id === F.vehicles.depot[0]);
    assert.deepEqual(vehicle.descriptions.list, [{ value: 'LC-1' }]);
  });
});

describe('alert templates', () => {
  test('alertTemplate by id with every field and its attachments', async () => {
    const data = ok(
      await h.as(F.alice)(
        `query($id: ID!) { alertTemplate(id: $id) { id name version contentType defaultContext locked channelName definition
          createdAt updatedAt attachments(pageSize: 2) { count next list { filename contentType byteSize url createdAt } } } }`,
        { id: S.templates.battery },
      ),
    );
    const t = data.alertTemplate;
    assert.equal(t.name, 'battery-low-email');
    assert.equal(t.contentType, 'HTML');
    assert.deepEqual(t.defaultContext, { company: 'Acme', threshold: 11.8 });
    assert.equal(t.locked, false);
    assert.equal(t.channelName, 'email');
    assert.equal(t.attachments.count, 3);
    assert.deepEqual(
      t.attachments.list.map((a: { filename: string }) => a.filename),
      ['a-logo.png', 'b-instructions.pdf'],
    );
    assert.equal(t.attachments.list[1].contentType, 'application/pdf');
    assert.ok(t.attachments.next);
  });

  test('alertTemplates lists the caller organization templates by name, paged', async () => {
    const first = ok(
      await h.as(F.alice)('{ alertTemplates(pageSize: 2) { count next list { name locked } } }'),
    );
    assert.equal(first.alertTemplates.count, 3);
    assert.deepEqual(first.alertTemplates.list, [
      { name: 'battery-low-email', locked: false },
      { name: 'crash-sms', locked: true },
    ]);
    const rest = ok(
      await h.as(F.alice)('query($p: ID) { alertTemplates(pageId: $p) { next list { name } } }', {
        p: first.alertTemplates.next,
      }),
    );
    assert.deepEqual(rest.alertTemplates, { next: null, list: [{ name: 'maintenance-push' }] });
  });
});

describe('vehicle alerts', () => {
  test('Device.alerts newest first with device and vehicle; alertsState summarises them', async () => {
    const data = ok(
      await h.as(F.alice)(
        `query($d: ID!, $quiet: ID!) {
          device(id: $d) { alerts { count list { id type severity status message startedAt endedAt latitude longitude
            device { id } vehicle { id } } }
            alertsState { activeCount criticalCount totalCount highestActiveSeverity activeTypes lastAlertAt } }
          quiet: device(id: $quiet) { alerts { count list { id } } alertsState { activeCount totalCount highestActiveSeverity activeTypes lastAlertAt } }
        }`,
        { d: d0(), quiet: F.depotDevices[50] },
      ),
    );
    const alerts = data.device.alerts;
    assert.equal(alerts.count, 3);
    assert.deepEqual(
      alerts.list.map((a: { id: string }) => a.id),
      [S.alerts.battery, S.alerts.engine, S.alerts.overspeed],
    );
    assert.equal(alerts.list[0].device.id, d0());
    assert.equal(alerts.list[0].vehicle.id, F.vehicles.depot[0]);
    assert.equal(alerts.list[2].status, 'RESOLVED');
    assert.ok(alerts.list[2].endedAt);
    assert.equal(alerts.list[0].startedAt, '2026-11-20T11:00:00.000Z');
    const state = data.device.alertsState;
    assert.equal(state.activeCount, 2);
    assert.equal(state.criticalCount, 1);
    assert.equal(state.totalCount, 3);
    assert.equal(state.highestActiveSeverity, 'CRITICAL');
    assert.deepEqual([...state.activeTypes].sort(), ['ENGINE_FAULT', 'LOW_BATTERY']);
    assert.equal(state.lastAlertAt, '2026-11-20T11:00:00.000Z');
    assert.deepEqual(data.quiet, {
      alerts: { count: 0, list: [] },
      alertsState: {
        activeCount: 0,
        totalCount: 0,
        highestActiveSeverity: null,
        activeTypes: [],
        lastAlertAt: null,
      },
    });
  });

  test('Group.alerts covers the group and its descendants, newest first', async () => {
    const data = ok(
      await h.as(F.alice)(
        `query($hq: ID!, $north: ID!, $south: ID!) {
          hq: group(id: $hq) { alerts(pageSize: 2) { count next list { id } } }
          north: group(id: $north) { alerts { count } }
          south: group(id: $south) { alerts { list { type } } }
        }`,
        { hq: F.groups.hq, north: F.groups.north, south: F.groups.south },
      ),
    );
    assert.equal(data.hq.alerts.count, 6);
    assert.deepEqual(
      data.hq.alerts.list.map((a: { id: string }) => a.id),
      [S.alerts.towing, S.alerts.battery],
    );
    assert.equal(data.north.alerts.count, 4);
    assert.deepEqual(data.south.alerts.list, [{ type: 'FUEL_LEVEL_LOW' }, { type: 'UNPLUGGED' }]);
  });

  test('alertFeedbacks: visible alerts only, each filter and their combination', async () => {
    const q = h.as(F.alice);
    const ids = async (args: string, variables: Record<string, unknown> = {}) =>
      ok(
        await q(
          `query${args.includes('$ids') ? '($ids: [ID!])' : ''} { alertFeedbacks${args} { count list { id } } }`,
          variables,
        ),
      ).alertFeedbacks;
    const all = await ids('');
    assert.equal(all.count, 3);
    assert.deepEqual(
      all.list.map((f: { id: string }) => f.id),
      [S.feedbacks.bobBattery, S.feedbacks.aliceBattery, S.feedbacks.aliceFuel],
    );
    assert.deepEqual((await ids('(status: CONFIRMED)')).list, [{ id: S.feedbacks.aliceBattery }]);
    assert.deepEqual((await ids('(language: FR)')).list, [{ id: S.feedbacks.bobBattery }]);
    assert.deepEqual((await ids('(alertIds: $ids)', { ids: [S.alerts.fuel, S.alerts.globex] })).list, [
      { id: S.feedbacks.aliceFuel },
    ]);
    assert.equal((await ids('(alertIds: $ids, language: DE)', { ids: [S.alerts.battery] })).count, 0);
    const fields = ok(
      await q(
        `{ alertFeedbacks(status: FIXED) { list { alertId status language comment createdAt author { email } alert { type } } } }`,
      ),
    );
    assert.deepEqual(fields.alertFeedbacks.list, [
      {
        alertId: S.alerts.fuel,
        status: 'FIXED',
        language: 'DE',
        comment: 'Getankt',
        createdAt: '2026-11-20T09:00:00.000Z',
        author: { email: F.alice.email },
        alert: { type: 'FUEL_LEVEL_LOW' },
      },
    ]);
    const bob = ok(await h.as(F.bob)('{ alertFeedbacks { count } }'));
    assert.equal(bob.alertFeedbacks.count, 2, 'bob sees the depot alerts only');
  });
});

describe('accounts: roles, alert preference, workshops, distributors', () => {
  test('roles and alert preference of the signed-in account', async () => {
    const data = ok(
      await h.as(F.alice)(`{ account { roles { name grantedAt grantedBy { email } }
        alertPreference { channels minimumSeverity digest language quietHoursStart quietHoursEnd mutedTypes updatedAt } } }`),
    );
    assert.deepEqual(data.account.roles, [
      { name: 'ADMIN', grantedAt: '2025-10-16T12:00:00.000Z', grantedBy: null },
      { name: 'BILLING', grantedAt: '2026-01-24T12:00:00.000Z', grantedBy: { email: F.alice.email } },
    ]);
    assert.deepEqual(data.account.alertPreference, {
      channels: ['EMAIL', 'PUSH'],
      minimumSeverity: 'WARNING',
      digest: 'DAILY',
      language: 'EN',
      quietHoursStart: '22:00',
      quietHoursEnd: '06:30',
      mutedTypes: ['EXCESSIVE_IDLING'],
      updatedAt: '2026-11-10T12:00:00.000Z',
    });
  });

  test("another account's alert preference: visible to an ADMIN, not to a DISPATCHER", async () => {
    const asAdmin = ok(
      await h.as(F.alice)('query($b: ID!) { account(id: $b) { alertPreference { channels } } }', {
        b: F.bob.uid,
      }),
    );
    assert.deepEqual(asAdmin.account.alertPreference, { channels: ['SMS'] });
    const asDispatcher = ok(
      await h.as(F.bob)(
        'query($a: ID!) { account(id: $a) { id roles { name } alertPreference { channels } } }',
        { a: S.dave.uid },
      ),
    );
    assert.equal(asDispatcher.account.id, S.dave.uid);
    assert.deepEqual(asDispatcher.account.roles, [{ name: 'DISPATCHER' }]);
    assert.equal(asDispatcher.account.alertPreference, null);
  });

  test('Account.workshops and Account.distributors are those of the account organization', async () => {
    const data = ok(
      await h.as(
        F.bob,
      )(`{ account { workshops { count list { name city countryCode postalCode phone email latitude longitude } }
        distributors { count list { label isActive } } } }`),
    );
    assert.equal(data.account.workshops.count, 2);
    assert.deepEqual(
      data.account.workshops.list.map((w: { name: string }) => w.name),
      ['Autohaus Sued', 'Garage Nord'],
    );
    assert.deepEqual(data.account.workshops.list[1], {
      name: 'Garage Nord',
      city: 'Hamburg',
      countryCode: 'DE',
      postalCode: '20457',
      phone: '+4940123456',
      email: 'service@garage-nord.example',
      latitude: 53.54,
      longitude: 9.98,
    });
    assert.deepEqual(data.account.distributors, {
      count: 2,
      list: [
        { label: 'Norauto Hamburg', isActive: true },
        { label: 'Speedy Berlin', isActive: false },
      ],
    });
  });
});

describe('bookings and personal data', () => {
  const fields = 'id status bookingDate userEmail userName userPhoneNumber';
  test('an ADMIN sees the bookings of its organization visible to it, latest first, with personal data', async () => {
    const data = ok(await h.as(F.alice)(`{ bookings { count list { ${fields} } } }`));
    assert.equal(data.bookings.count, 4);
    assert.deepEqual(
      data.bookings.list.map((b: { id: string }) => b.id),
      [S.bookings.b2, S.bookings.b1, S.bookings.b5, S.bookings.b3],
    );
    const b1 = data.bookings.list[1];
    assert.deepEqual(b1, {
      id: S.bookings.b1,
      status: 'PENDING',
      bookingDate: '2026-12-01T08:00:00.000Z',
      userEmail: F.bob.email,
      userName: F.bob.fullName,
      userPhoneNumber: '+491510000001',
    });
  });

  test('a DISPATCHER sees its own booking with personal data, and others of its vehicles without', async () => {
    const data = ok(await h.as(F.bob)(`{ bookings { count list { ${fields} } } }`));
    assert.equal(data.bookings.count, 2);
    const [b1, b5] = data.bookings.list;
    assert.equal(b1.id, S.bookings.b1);
    assert.equal(b1.userEmail, F.bob.email);
    assert.equal(b5.id, S.bookings.b5);
    assert.deepEqual([b5.userEmail, b5.userName, b5.userPhoneNumber], [null, null, null]);
    const other = ok(await h.as(F.bob)('query($id: ID!) { booking(id: $id) { id } }', { id: S.bookings.b2 }));
    assert.equal(other.booking, null, 'a booking of a vehicle bob cannot see');
  });

  test('booking(id) returns every field with its workshop and vehicle', async () => {
    const data = ok(
      await h.as(F.alice)(
        `query($id: ID!) { booking(id: $id) { plateNumber status quotationIds workshop { name } vehicle { id }
          vehicleMake vehicleModel vehicleYear vin city country additionalInformation preferredLanguage contactMethod
          userName createdAt updatedAt } }`,
        { id: S.bookings.b2 },
      ),
    );
    const b = data.booking;
    assert.equal(b.status, 'CONFIRMED');
    assert.deepEqual(b.quotationIds, ['Q-201']);
    assert.deepEqual(b.workshop, { name: 'Autohaus Sued' });
    assert.deepEqual(b.vehicle, { id: F.vehicles.south[0] });
    assert.equal(b.vehicleYear, '2021');
    assert.equal(b.preferredLanguage, 'DE');
    assert.equal(b.contactMethod, 'SMS');
    assert.equal(b.userName, F.alice.fullName);
    assert.equal(b.plateNumber, 'PLATE-2');
  });
});

describe('driver services', () => {
  test('driverService with its workshops; driverServices by label substring', async () => {
    const q = h.as(F.alice);
    const one = ok(
      await q(
        'query($id: ID!) { driverService(id: $id) { label description workshops { count list { name } } } }',
        {
          id: S.driverServices.tyres,
        },
      ),
    );
    assert.deepEqual(one.driverService, {
      label: 'Tyre change',
      description: 'Seasonal tyre change and storage',
      workshops: { count: 2, list: [{ name: 'Autohaus Sued' }, { name: 'Garage Nord' }] },
    });
    const all = ok(await q('{ driverServices { count list { label } } }'));
    assert.deepEqual(all.driverServices, {
      count: 2,
      list: [{ label: 'Oil service' }, { label: 'Tyre change' }],
    });
    const filtered = ok(await q('{ driverServices(label: "TYRE") { list { id } } }'));
    assert.deepEqual(filtered.driverServices.list, [{ id: S.driverServices.tyres }]);
    const none = ok(await q('{ driverServices(label: "%") { count } }'));
    assert.equal(none.driverServices.count, 0, 'LIKE wildcards are matched literally');
  });
});

describe('onboarding distributors and client identifications', () => {
  test('distributor with provider, workshop, staff and requests', async () => {
    const data = ok(
      await h.as(F.alice)(
        `query($id: ID!) { distributor(id: $id) { id organizationId label isActive providerWorkshopId
          provider { code name website supportEmail } workshop { name }
          staff { count list { fullName role active email phone createdAt } }
          requests { count list { status plate vin device { id } requestedAt scheduledAt completedAt notes } } } }`,
        { id: S.distributors.hamburg },
      ),
    );
    const d = data.distributor;
    assert.equal(d.organizationId, F.orgA);
    assert.equal(d.providerWorkshopId, 'NRT-HH-01');
    assert.deepEqual(d.provider, {
      code: 'NORAUTO',
      name: 'Norauto',
      website: 'https://norauto.example',
      supportEmail: 'pro@norauto.example',
    });
    assert.deepEqual(d.workshop, { name: 'Garage Nord' });
    assert.equal(d.staff.count, 3);
    assert.deepEqual(
      d.staff.list.map((s: { fullName: string; role: string; active: boolean }) => [
        s.fullName,
        s.role,
        s.active,
      ]),
      [
        ['Anna Manager', 'MANAGER', true],
        ['Sam Sales', 'SALES', false],
        ['Tom Technician', 'TECHNICIAN', true],
      ],
    );
    assert.equal(d.requests.count, 3);
    assert.deepEqual(
      d.requests.list.map((r: { status: string; device: { id: string } | null }) => [
        r.status,
        r.device?.id ?? null,
      ]),
      [
        ['SCHEDULED', null],
        ['COMPLETED', F.southDevices[0]],
        ['COMPLETED', d0()],
      ],
    );
  });

  test('distributors(isActive)', async () => {
    const q = h.as(F.alice);
    const labels = async (args: string) =>
      ok(await q(`{ distributors${args} { list { label } } }`)).distributors.list.map(
        (d: { label: string }) => d.label,
      );
    assert.deepEqual(await labels(''), ['Norauto Hamburg', 'Speedy Berlin']);
    assert.deepEqual(await labels('(isActive: true)'), ['Norauto Hamburg']);
    assert.deepEqual(await labels('(isActive: false)'), ['Speedy Berlin']);
  });

  test('clientIdentifications: every filter, combined, and the nested distributor and account', async () => {
    const q = h.as(F.alice);
    const codes = async (args: string, variables: Record<string, unknown> = {}) =>
      ok(
        await q(
          `query${args.includes('$id') ? '($id: ID)' : ''} { clientIdentifications${args} { count list { code } } }`,
          variables,
        ),
      ).clientIdentifications.list.map((c: { code: string }) => c.code);
    assert.deepEqual(await codes(''), ['ACME-001', 'ACME-002', 'ACME-003']);
    assert.deepEqual(await codes('(code: "ACME-002")'), ['ACME-002']);
    assert.deepEqual(await codes('(label: "munich")'), ['ACME-003']);
    assert.deepEqual(await codes('(distributorId: $id)', { id: S.distributors.hamburg }), ['ACME-001']);
    assert.deepEqual(await codes('(clientReference: "C-1001")'), ['ACME-001']);
    assert.deepEqual(await codes('(defaultAccountId: $id)', { id: F.alice.uid }), ['ACME-001', 'ACME-003']);
    assert.deepEqual(await codes('(usable: false)'), ['ACME-002']);
    assert.deepEqual(await codes('(revoked: false)'), ['ACME-001', 'ACME-003']);
    assert.deepEqual(
      await codes('(revoked: false, label: "acme", defaultAccountId: $id, usable: true)', {
        id: F.alice.uid,
      }),
      ['ACME-001', 'ACME-003'],
    );
    assert.deepEqual(await codes('(distributorId: "not-a-uuid")'), []);
    const nested = ok(
      await q(`{ clientIdentifications(code: "ACME-001") { list { id label distributorId distributor { label }
        clientReference defaultAccountId defaultAccount { email } usable revoked createdAt updatedAt } } }`),
    );
    const ci = nested.clientIdentifications.list[0];
    assert.equal(ci.distributor.label, 'Norauto Hamburg');
    assert.equal(ci.defaultAccount.email, F.alice.email);
    assert.equal(ci.distributorId, S.distributors.hamburg);
  });
});

describe('campaigns', () => {
  test('campaign with the device states the caller may see', async () => {
    const query = `query($id: ID!) { campaign(id: $id) { name status createdAt archivedAt configurations
      devicesStatus { deviceId device { id } status errorMessage updatedAt } } }`;
    const alice = ok(await h.as(F.alice)(query, { id: S.campaigns.firmware }));
    assert.equal(alice.campaign.status, 'AVAILABLE_UPDATE');
    assert.deepEqual(alice.campaign.configurations, ['cfg-4.2.0']);
    assert.equal(alice.campaign.archivedAt, null);
    assert.deepEqual(
      alice.campaign.devicesStatus.map(
        (d: { deviceId: string; status: string; errorMessage: string | null }) => [
          d.deviceId,
          d.status,
          d.errorMessage,
        ],
      ),
      [
        [F.depotDevices[0], 'UP_TO_DATE', null],
        [F.depotDevices[1], 'FAILED', 'download timeout'],
        [F.southDevices[0], 'PENDING', null],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    const bob = ok(await h.as(F.bob)(query, { id: S.campaigns.firmware }));
    assert.equal(bob.campaign.devicesStatus.length, 2, 'the south device is not visible to bob');
  });

  test('campaigns hides archived ones unless archived: true', async () => {
    const q = h.as(F.alice);
    const names = async (args: string) =>
      ok(await q(`{ campaigns${args} { count list { name } } }`)).campaigns.list.map(
        (c: { name: string }) => c.name,
      );
    assert.deepEqual(await names(''), ['Firmware 4.2']);
    assert.deepEqual(await names('(archived: false)'), ['Firmware 4.2']);
    assert.deepEqual(await names('(archived: true)'), ['Firmware 4.2', 'Config summer']);
  });
});

describe('catalogs: metrics and log-fetch actions', () => {
  test('metrics: ids, names, nameContains, rawUnit, combined', async () => {
    const q = h.as(F.carol);
    const names = async (args: string) =>
      ok(await q(`{ metrics${args} { count list { name } } }`)).metrics.list.map(
        (m: { name: string }) => m.name,
      );
    assert.deepEqual(await names(''), [
      'battery_voltage',
      'engine_rpm',
      'fuel_level',
      'gps_position',
      'vehicle_speed',
    ]);
    assert.deepEqual(await names('(ids: ["obd.engine_rpm", "gps.position"])'), [
      'engine_rpm',
      'gps_position',
    ]);
    assert.deepEqual(await names('(names: ["fuel_level"])'), ['fuel_level']);
    assert.deepEqual(await names('(nameContains: "_LEV")'), ['fuel_level']);
    assert.deepEqual(await names('(rawUnit: true)'), ['battery_voltage', 'engine_rpm', 'fuel_level']);
    assert.deepEqual(await names('(rawUnit: false)'), ['gps_position', 'vehicle_speed']);
    assert.deepEqual(await names('(rawUnit: true, nameContains: "e_")'), ['engine_rpm']);
    const one = ok(
      await q(
        '{ metrics(names: ["battery_voltage"]) { list { id description category dataType unit rawUnit rawFactor } } }',
      ),
    );
    assert.deepEqual(one.metrics.list, [
      {
        id: 'battery.voltage',
        description: 'Battery voltage',
        category: 'BATTERY',
        dataType: 'FLOAT',
        unit: 'V',
        rawUnit: 'mV',
        rawFactor: 0.001,
      },
    ]);
  });

  test('logfetchActions in catalog order, paged', async () => {
    const first = ok(
      await h.as(F.alice)(
        '{ logfetchActions(pageSize: 3) { count next list { id name defaultDurationMinutes } } }',
      ),
    );
    assert.equal(first.logfetchActions.count, 4);
    assert.deepEqual(
      first.logfetchActions.list.map((a: { id: string }) => a.id),
      ['SYSTEM_LOGS', 'CAN_TRACE', 'GPS_TRACE'],
    );
    const rest = ok(
      await h.as(F.alice)(
        'query($p: ID) { logfetchActions(pageId: $p) { next list { id defaultDurationMinutes } } }',
        {
          p: first.logfetchActions.next,
        },
      ),
    );
    assert.deepEqual(rest.logfetchActions, {
      next: null,
      list: [{ id: 'MODEM_LOGS', defaultDurationMinutes: null }],
    });
  });
});

describe('device diagnostics and profiles', () => {
  test('logFetches, remoteDiags, profile privacies and modes, current privacy and mode', async () => {
    const data = ok(
      await h.as(F.alice)(
        `query($d: ID!, $d1: ID!) {
          device(id: $d) {
            logFetches { count list { action { id name } status requestedBy { email } requestedAt completedAt byteSize fileUrl } }
            remoteDiags { list { status protocol dtcCodes vin batteryVoltage odometerKm requestedAt completedAt } }
            profilePrivacies { count list { level startedAt endedAt } }
            profilePrivacy { level endedAt }
            profileModes { list { mode } }
            profileMode { mode startedAt }
          }
          other: device(id: $d1) { profileModes { count } profileMode { mode } profilePrivacy { level } }
        }`,
        { d: d0(), d1: F.depotDevices[1] },
      ),
    );
    const d = data.device;
    assert.equal(d.logFetches.count, 2);
    assert.deepEqual(
      d.logFetches.list.map((l: any) => [l.action.id, l.status, l.requestedBy.email]),
      [
        ['CAN_TRACE', 'FAILED', F.bob.email],
        ['SYSTEM_LOGS', 'COMPLETED', F.alice.email],
      ],
    );
    assert.equal(d.logFetches.list[1].byteSize, 52000);
    assert.deepEqual(d.remoteDiags.list[0].dtcCodes, ['P0420', 'P0171']);
    assert.equal(d.remoteDiags.list[0].batteryVoltage, 12.4);
    assert.equal(d.remoteDiags.list[0].odometerKm, 10250);
    assert.deepEqual(
      d.profilePrivacies.list.map((p: { level: string }) => p.level),
      ['NO_LOCATION', 'FULL'],
    );
    assert.deepEqual(d.profilePrivacy, { level: 'NO_LOCATION', endedAt: null });
    assert.deepEqual(d.profileModes.list, [{ mode: 'NORMAL' }]);
    assert.deepEqual(d.profileMode, { mode: 'NORMAL', startedAt: '2026-10-31T12:00:00.000Z' });
    assert.deepEqual(data.other, { profileModes: { count: 1 }, profileMode: null, profilePrivacy: null });
  });
});

describe('lpa', () => {
  const query = `query($imei: ID!, $fn: FunctionNameType!, $p: ParametersType!) {
    lpa(imei: $imei, functionName: $fn, parameters: $p) { id imei functionName status
      parameters { iccid activationCode smdpAddress matchingId nickname hasConfirmationCode } } }`;

  test('the latest operation matching the function and parameters', async () => {
    const q = h.as(F.alice);
    const download = ok(
      await q(query, {
        imei: d0(),
        fn: 'DOWNLOAD_AND_ENABLE_PROFILE',
        p: { activationCode: S.activationCode },
      }),
    );
    assert.deepEqual(download.lpa, {
      id: S.lpa.download,
      imei: d0(),
      functionName: 'DOWNLOAD_AND_ENABLE_PROFILE',
      status: 'SUCCEEDED',
      parameters: {
        iccid: S.iccid,
        activationCode: S.activationCode,
        smdpAddress: null,
        matchingId: null,
        nickname: null,
        hasConfirmationCode: true,
      },
    });
    const enable = ok(await q(query, { imei: d0(), fn: 'ENABLE_PROFILE', p: { iccid: S.iccid } }));
    assert.equal(enable.lpa.status, 'PENDING');
    assert.equal(enable.lpa.id, S.lpa.enable);
  });

  test('no matching operation: NOT_REQUESTED with the given parameters', async () => {
    const data = ok(
      await h.as(F.alice)(query, {
        imei: d0(),
        fn: 'DISABLE_PROFILE',
        p: { iccid: '8949020000999999999F', confirmationCode: '1234' },
      }),
    );
    assert.deepEqual(data.lpa, {
      id: null,
      imei: d0(),
      functionName: 'DISABLE_PROFILE',
      status: 'NOT_REQUESTED',
      parameters: {
        iccid: '8949020000999999999F',
        activationCode: null,
        smdpAddress: null,
        matchingId: null,
        nickname: null,
        hasConfirmationCode: true,
      },
    });
  });

  test('missing or malformed parameters are BAD_USER_INPUT', async () => {
    const q = h.as(F.alice);
    for (const [fn, p, parameter] of [
      ['ENABLE_PROFILE', {}, 'parameters.iccid'],
      ['DOWNLOAD_PROFILE', { smdpAddress: 'smdp.example.com' }, 'parameters.activationCode'],
      ['SET_NICKNAME', { iccid: S.iccid }, 'parameters.nickname'],
      ['GET_EID', { iccid: '12' }, 'parameters.iccid'],
      ['DOWNLOAD_PROFILE', { activationCode: 'not-a-code' }, 'parameters.activationCode'],
    ] as const) {
      const res = await q(query, { imei: d0(), fn, p });
      assert.equal(res.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT', `${fn} ${JSON.stringify(p)}`);
      assert.equal(res.errors?.[0]?.extensions?.argument, parameter);
    }
  });
});

describe('paging rules', () => {
  test('pageSize above the documented maximum is BAD_USER_INPUT, nested and root', async () => {
    const root = await h.as(F.alice)('{ bookings(pageSize: 101) { count } }');
    assert.equal(root.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
    assert.equal(root.errors?.[0]?.extensions?.maxPageSize, 100);
    const nestedRes = await h.as(F.alice)(
      `query($d: ID!) { device(id: $d) { alerts(pageSize: 501) { count } } }`,
      { d: d0() },
    );
    assert.equal(nestedRes.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
  });

  test('a cursor of campaigns without archived is refused for archived: true', async () => {
    const q = h.as(F.alice);
    const first = ok(await q('{ campaigns(archived: true, pageSize: 1) { next } }'));
    const res = await q('query($p: ID) { campaigns(pageId: $p) { list { name } } }', {
      p: first.campaigns.next,
    });
    assert.equal(res.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
  });

  test('nested alerts of many devices are fetched in a bounded number of statements, whatever the page size', async () => {
    const q = h.as(F.alice);
    const statementsFor = async (pageSize: number) => {
      h.statements.reset();
      ok(
        await q(
          `query($g: ID!, $n: Int) { group(id: $g) { devices(pageSize: $n) { list { id alerts { list { id } }
            alertsState { activeCount } descriptions { list { id } } logFetches { list { action { id } } } } } } }`,
          { g: F.groups.depot, n: pageSize },
        ),
      );
      return h.statements.count;
    };
    const small = await statementsFor(5);
    const large = await statementsFor(120);
    assert.equal(small, large);
    assert.ok(large <= 12, `statements: ${large}`);
  });
});

describe('walking pages', () => {
  const roots: Array<[string, string]> = [
    ['alertTemplates', ''],
    ['alertFeedbacks', ''],
    ['bookings', ''],
    ['campaigns', 'archived: true'],
    ['clientIdentifications', ''],
    ['distributors', ''],
    ['driverServices', ''],
    ['metrics', ''],
    ['logfetchActions', ''],
  ];
  for (const [field, filters] of roots) {
    test(`${field}: pages of one follow next to the full list, in order, ending with null`, async () => {
      const q = h.as(F.alice);
      const args = (extra: string) => [filters, extra].filter(Boolean).join(', ');
      const full = ok(await q(`{ ${field}(${args('pageSize: 100')}) { count list { id } } }`))[field];
      assert.ok(full.list.length >= 2, `${field} needs at least two rows`);
      assert.equal(full.count, full.list.length);
      const walked: string[] = [];
      let next: string | null = null;
      do {
        const page: { next: string | null; list: { id: string }[] } = ok(
          await q(`query($p: ID) { ${field}(${args('pageSize: 1, pageId: $p')}) { next list { id } } }`, {
            p: next,
          }),
        )[field];
        assert.ok(page.list.length <= 1);
        walked.push(...page.list.map((r) => r.id));
        next = page.next;
      } while (next);
      assert.deepEqual(
        walked,
        full.list.map((r: { id: string }) => r.id),
      );
    });
  }

  const nestedPaths: Array<[string, string, () => Record<string, unknown>, string]> = [
    ['Device.alerts', 'device(id: $id)', () => ({ id: F.depotDevices[0] }), 'alerts'],
    ['Device.logFetches', 'device(id: $id)', () => ({ id: F.depotDevices[0] }), 'logFetches'],
    ['Device.profilePrivacies', 'device(id: $id)', () => ({ id: F.depotDevices[0] }), 'profilePrivacies'],
    ['Device.descriptions', 'device(id: $id)', () => ({ id: F.depotDevices[0] }), 'descriptions'],
    ['Group.alerts', 'group(id: $id)', () => ({ id: F.groups.hq }), 'alerts'],
    ['OnboardingDistributor.staff', 'distributor(id: $id)', () => ({ id: S.distributors.hamburg }), 'staff'],
    [
      'OnboardingDistributor.requests',
      'distributor(id: $id)',
      () => ({ id: S.distributors.hamburg }),
      'requests',
    ],
    [
      'DriverService.workshops',
      'driverService(id: $id)',
      () => ({ id: S.driverServices.tyres }),
      'workshops',
    ],
    [
      'AlertTemplate.attachments',
      'alertTemplate(id: $id)',
      () => ({ id: S.templates.battery }),
      'attachments',
    ],
    ['Account.workshops', 'account(id: $id)', () => ({ id: F.alice.uid }), 'workshops'],
  ];
  for (const [name, parent, variables, field] of nestedPaths) {
    test(`${name}: pages of one follow next to the full list`, async () => {
      const q = h.as(F.alice);
      const root = parent.slice(0, parent.indexOf('('));
      const full = ok(
        await q(
          `query($id: ID!) { ${parent} { ${field}(pageSize: 100) { count list { id } } } }`,
          variables(),
        ),
      )[root][field];
      assert.ok(full.list.length >= 2, `${name} needs at least two rows`);
      assert.equal(full.count, full.list.length);
      const walked: string[] = [];
      let next: string | null = null;
      do {
        const page: { next: string | null; list: { id: string }[] } = ok(
          await q(
            `query($id: ID!, $p: ID) { ${parent} { ${field}(pageSize: 1, pageId: $p) { next list { id } } } }`,
            {
              ...variables(),
              p: next,
            },
          ),
        )[root][field];
        walked.push(...page.list.map((r) => r.id));
        next = page.next;
      } while (next);
      assert.deepEqual(
        walked,
        full.list.map((r: { id: string }) => r.id),
      );
    });
  }

  test('count costs one statement, and only when selected', async () => {
    const q = h.as(F.alice);
    h.statements.reset();
    ok(await q('{ bookings { list { id } } }'));
    const without = h.statements.count;
    h.statements.reset();
    ok(await q('{ bookings { count list { id } } }'));
    assert.equal(h.statements.count, without + 1);
  });
});

describe('keyset paging over times finer than a millisecond', () => {
  /** Follows `next` with pageSize 1 and returns the ids in the order visited. */
  const walk = async (query: string, variables: Record<string, unknown>, pick: (data: any) => any) => {
    const q = h.as(F.alice);
    const walked: string[] = [];
    let next: string | null = null;
    do {
      const page: { next: string | null; list: { id: string }[] } = pick(
        ok(await q(query, { ...variables, p: next })),
      );
      walked.push(...page.list.map((r) => r.id));
      next = page.next;
    } while (next);
    return walked;
  };
  const uuid = (n: number) => `fd000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

  test('alerts stored with microseconds are each visited exactly once, pageSize 1', async () => {
    const device = F.depotDevices[10]!;
    const ids = [1, 2, 3, 4].map(uuid);
    await h.knex('fleet.vehicle_alerts').insert(
      ids.map((id) => ({
        id,
        organization_id: F.orgA,
        device_id: device,
        type: 'LOW_BATTERY',
        severity: 'INFO',
        status: 'ACTIVE',
        message: 'same microsecond',
        started_at: h.knex.raw(`'2026-11-20 10:00:00.123456+00'::timestamptz`),
      })),
    );
    try {
      const walked = await walk(
        'query($d: ID!, $p: ID) { device(id: $d) { alerts(pageSize: 1, pageId: $p) { next list { id } } } }',
        { d: device },
        (data) => data.device.alerts,
      );
      assert.deepEqual(walked, [...ids].reverse(), 'newest first, ties by id descending, each once');
    } finally {
      await h.knex('fleet.vehicle_alerts').whereIn('id', ids).delete();
    }
  });

  test('campaigns created with the default now() are each visited exactly once, pageSize 1', async () => {
    const ids = [11, 12, 13].map(uuid);
    // One statement: the same now(), with microseconds, for the three (a batch import).
    await h
      .knex('fleet.campaigns')
      .insert(ids.map((id) => ({ id, organization_id: F.orgA, name: id, status: 'CREATED' })));
    try {
      const walked = await walk(
        'query($p: ID) { campaigns(archived: true, pageSize: 1, pageId: $p) { next list { id } } }',
        {},
        (data) => data.campaigns,
      );
      assert.deepEqual(walked, [...ids].reverse().concat([S.campaigns.firmware, S.campaigns.summer]));
    } finally {
      await h.knex('fleet.campaigns').whereIn('id', ids).delete();
    }
  });

  test('the migration rounds existing microsecond values to the millisecond', async () => {
    const id = uuid(21);
    await keysetTimesMs.down(h.knex);
    try {
      await h.knex('fleet.device_remote_diags').insert({
        id,
        device_id: F.depotDevices[10],
        status: 'REQUESTED',
        requested_at: h.knex.raw(`'2026-11-20 10:00:00.9996+00'::timestamptz`),
      });
    } finally {
      await keysetTimesMs.up(h.knex);
    }
    try {
      const row = await h
        .knex('fleet.device_remote_diags')
        .select(h.knex.raw(`to_char(requested_at at time zone 'UTC', 'HH24:MI:SS.US') as t`))
        .where({ id })
        .first();
      assert.equal(row.t, '10:00:01.000000');
    } finally {
      await h.knex('fleet.device_remote_diags').where({ id }).delete();
    }
  });

  test('every timestamptz column of a keyset order holds milliseconds: timestamptz(3)', async () => {
    const specs = [...Object.values(tables), ...Object.values(servicesTables)].filter(
      (v): v is TableSpec => typeof v === 'object' && v !== null && 'order' in v,
    );
    const coarse: string[] = [];
    let checked = 0;
    for (const spec of specs) {
      const [schema, table] = spec.table.split('.');
      for (const qualified of spec.order.columns) {
        const column = qualified.slice(qualified.indexOf('.') + 1);
        const row = await h
          .knex('information_schema.columns')
          .select('data_type', 'datetime_precision')
          .where({ table_schema: schema, table_name: table, column_name: column })
          .first();
        // Computed keys (readingsAnon's recorded_hour) are not columns of the table.
        if (!row || row.data_type !== 'timestamp with time zone') continue;
        checked++;
        if (Number(row.datetime_precision) !== 3) coarse.push(`${spec.table}.${column}`);
      }
    }
    assert.ok(checked >= 15, `found ${checked} keyset time columns`);
    assert.deepEqual(coarse, []);
  });
});

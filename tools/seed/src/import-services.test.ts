import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ImportError, importDataset } from './import';
import { migratedDatabase, type MigratedDatabase } from './test-helpers';

const example = JSON.parse(readFileSync(new URL('../examples/small-fleet.json', import.meta.url), 'utf8'));
let db: MigratedDatabase;

before(async () => {
  db = await migratedDatabase('seed_import_services');
});
after(async () => {
  await db?.drop();
});

/** The example file with a services section referring to its accounts, groups, vehicles and devices. */
function withServices(name: string) {
  const dataset = structuredClone(example);
  const org = dataset.organizations[0];
  org.name = name;
  const owner = org.accounts[0].email;
  const lead = org.accounts[1].email;
  const device = org.devices[0].id;
  org.services = {
    accountRoles: [
      { account: owner, roles: ['ADMIN', 'FLEET_MANAGER'] },
      { account: lead, roles: ['DISPATCHER'] },
    ],
    descriptions: [
      { subject: 'GROUP', of: 'Brussels Depot', label: 'Cost centre', value: 'CC-1' },
      { subject: 'DEVICE', of: device, label: 'Installer', value: 'Garage Centre' },
      { subject: 'VEHICLE', of: '1-ABC-123', label: 'Lease contract', value: 'LC-9' },
      { subject: 'ACCOUNT', of: lead, label: 'Department', value: 'Antwerp' },
      { subject: 'DRIVER', of: 'BE-D-0001', label: 'Licence class', value: 'CE' },
    ],
    alertTemplates: [
      {
        name: 'battery-low-email',
        channelName: 'email',
        contentType: 'HTML',
        definition: 'Battery low on {{vehicle.plate}}',
        defaultContext: { company: name },
        attachments: [
          {
            filename: 'logo.png',
            contentType: 'image/png',
            byteSize: 1200,
            url: 'https://files.example/logo.png',
          },
        ],
      },
    ],
    workshops: [
      { name: 'Garage Centre', city: 'Brussels', countryCode: 'BE', postalCode: '1000' },
      { name: 'Antwerp Auto', city: 'Antwerp', countryCode: 'BE' },
    ],
    driverServices: [{ label: 'Tyre change', workshops: ['Garage Centre', 'Antwerp Auto'] }],
    distributors: [
      {
        label: 'Norauto Brussels',
        provider: { code: 'NORAUTO', name: 'Norauto' },
        workshop: 'Garage Centre',
        staff: [{ fullName: 'Eva Tech', role: 'TECHNICIAN' }],
      },
    ],
    clientIdentifications: [
      { code: 'INI-1', label: 'Initech', distributor: 'Norauto Brussels', defaultAccount: owner },
    ],
    bookings: [
      { account: lead, vehicle: '1-ABC-123', workshop: 'Antwerp Auto', bookingDate: '2026-12-01T08:00:00Z' },
    ],
    campaigns: [{ name: 'Firmware 5', status: 'IN_PROGRESS', devices: [{ device, status: 'UP_TO_DATE' }] }],
    vehicleAlerts: [
      {
        device,
        type: 'LOW_BATTERY',
        severity: 'WARNING',
        status: 'ACTIVE',
        message: 'Battery at 11.6 V',
        startedAt: '2026-11-20T08:00:00Z',
      },
    ],
  };
  return dataset;
}

describe('import of the services section', () => {
  test('every section is written with its references resolved', async () => {
    const dataset = withServices('Initech Services');
    const summary = await importDataset(db.knex, dataset);
    const orgId = summary.imported[0]!.id;
    const k = db.knex;
    const roles = await k('fleet.account_roles as r')
      .join('fleet.accounts as a', 'a.id', 'r.account_id')
      .where('a.organization_id', orgId)
      .orderBy(['a.email', 'r.role'])
      .select('a.email', 'r.role');
    assert.equal(roles.length, 3);
    const booking = await k('fleet.bookings').where({ organization_id: orgId }).first();
    const lead = dataset.organizations[0].accounts[1];
    assert.equal(booking.user_email, lead.email);
    assert.equal(booking.user_name, lead.fullName);
    assert.equal(booking.plate_number, '1-ABC-123');
    assert.equal(booking.city, 'Antwerp');
    const alert = await k('fleet.vehicle_alerts').where({ organization_id: orgId }).first();
    const vehicle = await k('fleet.vehicles').where({ organization_id: orgId, plate: '1-ABC-123' }).first();
    assert.equal(alert.vehicle_id, vehicle.id, "the alert's vehicle is the device's current vehicle");
    const descriptions = await k('fleet.descriptions').where({ organization_id: orgId }).orderBy('label');
    assert.deepEqual(
      descriptions.map((d: { subject: string }) => d.subject),
      ['GROUP', 'ACCOUNT', 'DEVICE', 'VEHICLE', 'DRIVER'],
    );
    const driver = await k('fleet.drivers').where({ organization_id: orgId, id_key: 'BE-D-0001' }).first();
    assert.equal(descriptions[4].subject_id, driver.id, 'a driver is named by its idKey');
    const ci = await k('fleet.client_identifications').where({ organization_id: orgId }).first();
    const distributor = await k('fleet.onboarding_distributors').where({ organization_id: orgId }).first();
    assert.equal(ci.distributor_id, distributor.id);
    assert.equal(
      (
        await k('fleet.driver_service_workshops').whereIn(
          'driver_service_id',
          k('fleet.driver_services').select('id').where({ organization_id: orgId }),
        )
      ).length,
      2,
    );
    assert.equal((await k('fleet.alert_attachments')).length, 1);
    assert.equal((await k('fleet.campaign_devices')).length, 1);
  });

  test('unknown references and duplicates are listed with their paths and nothing is written', async () => {
    const dataset = withServices('Broken Services');
    const s = dataset.organizations[0].services;
    s.accountRoles[0].account = 'nobody@example.com';
    s.descriptions[1].of = '000000000000000';
    s.descriptions[4].of = 'Nobody Driving';
    s.workshops.push({ name: 'garage centre', city: 'Ghent', countryCode: 'BE' });
    s.bookings[0].workshop = 'Nowhere';
    s.clientIdentifications[0].distributor = 'Unknown Distributor';
    s.clientIdentifications[0].revoked = true;
    s.vehicleAlerts[0].endedAt = '2026-11-19T08:00:00Z';
    s.campaigns[0].devices[0].status = 'BROKEN';
    const before = Number((await db.knex('fleet.organizations').count('* as n').first())!.n);
    const error = await importDataset(db.knex, dataset).then(
      () => assert.fail('the import should have been refused'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof ImportError, String(error));
    const path = 'organizations[0].services';
    for (const expected of [
      `${path}.accountRoles[0].account: unknown account "nobody@example.com"`,
      `${path}.descriptions[1].of: unknown device "000000000000000"`,
      `${path}.descriptions[4].of: unknown driver "Nobody Driving"`,
      `${path}.workshops[2]: duplicate workshop name "garage centre" (also at ${path}.workshops[0])`,
      `${path}.bookings[0].workshop: unknown workshop "Nowhere"`,
      `${path}.clientIdentifications[0].distributor: unknown distributor "Unknown Distributor"`,
      `${path}.clientIdentifications[0].usable: a revoked client identification cannot be usable`,
      `${path}.vehicleAlerts[0].endedAt: before startedAt`,
    ]) {
      assert.ok(error.problems.includes(expected), `missing: ${expected}\n${error.problems.join('\n')}`);
    }
    assert.ok(
      error.problems.some((p) =>
        p.startsWith(`${path}.campaigns[0].devices[0].status: invalid status "BROKEN"`),
      ),
      error.problems.join('\n'),
    );
    assert.equal(Number((await db.knex('fleet.organizations').count('* as n').first())!.n), before);
  });
});

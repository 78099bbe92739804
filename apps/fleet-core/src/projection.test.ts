/**
 * Column projection (TableSpec.fieldNeeds) never changes an answer: every field of Device, Group,
 * Vehicle, Account, Driver and Trip, selected alone (only its columns read), answers exactly what it
 * answers in a selection that reads every column, through HTTP on real PostgreSQL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dataOf } from '@fleetgraph/testing';
import { assertProjectionKeepsAnswers, type ProjectionCase } from '@fleetgraph/subgraph-kit/testing';
import { F } from './testing/fixture';
import { startHarness, type Harness } from './testing/harness';

let h: Harness;
before(async () => {
  // Full selections of nested pages are over the query-cost limit on purpose: they compare
  // answers, they are not what clients may ask.
  h = await startHarness('fleet_projection', { MAX_COST: '100000000' });
});
after(() => h.close());

// Every field of the type; `alertsState` / `alerts` are not in fieldNeeds, so these selections
// read every column whatever the declarations say.
const DEVICE = `id activeAccount deviceType serialNumber onboarded createdAt updatedAt owner { id }
  firstConnectionAt lastConnectionAt lastDisconnectionAt lastActivityAt lastConnectionReason
  lastDisconnectionReason status currentVehicle { id } vehicles { count list { id } }
  groups { count list { id } } product { id name } lastPosition { latitude longitude recordedAt }
  lastTrip { id } trips { count list { id } } tripSummary { tripCount } harshes { count list { id } }
  alertsState { totalCount }`;
const GROUP = `id label tags hierarchyLevel owner { id } devices { count list { id } }
  vehicles { count list { id } } parents { count list { id } } children { count list { id } }
  users { count list { id } } drivers { count list { id } } alerts { count }`;

// Lookups (Device.currentVehicle, Device.owner, Group.owner) project too; `descriptions` is not
// declared, so these full selections read every column.
const VEHICLE = `id vin plate make model year fuelType label vehicleType registrationCountry
  fuelTankCapacityLiters batteryCapacityKwh color odometerKm odometerUpdatedAt createdAt updatedAt
  currentDevice { id } groups { count list { id } } currentDriver { id } lastTrip { id }
  trips { count list { id } } descriptions { count }`;
const ACCOUNT = `id organizationId email phone fullName shortName companyName countryCode language
  timeZone createdAt updatedAt lastSignInAt confirmedAt groups { count list { id } }
  devices { count list { id } } vehicles { count list { id } } drivers { count list { id } }
  driverProfiles { count list { id } } driverContacts { count } descriptions { count }`;
// Drivers and trips: `Driver.descriptions` is not declared (every column); every Trip field is.
const DRIVER = `id label idKey createdAt updatedAt userProfile { id } userContact { id }
  currentVehicle { id } defaultVehicle { id } active vehicles { count list { id } }
  currentVehicles { count list { id } } groups { count list { id } } lastTrip { id }
  trips { count list { id } } vehicleSessions { count list { id } } descriptions { count }`;
const TRIP = `id startedAt endedAt durationSeconds startPosition { latitude longitude recordedAt }
  endPosition { latitude longitude recordedAt } startAddress endAddress distanceKm maxSpeedKmh
  averageSpeedKmh idleDurationSeconds fuelUsedLiters device { id } vehicle { id } driver { id }
  harshes { count list { id kind } } overspeeds { count list { id } } metadata { count list { id key } }`;
const present = (values: any[]) => values.filter((value) => value != null);

const cases: Array<ProjectionCase & { type: string }> = [
  {
    type: 'Vehicle (Device.currentVehicle lookup)',
    full: VEHICLE,
    wrap: (s) => `{ devices(pageSize: 100) { list { id currentVehicle { ${s} } } } }`,
    items: (d) => present(d.devices.list.map((device: any) => device.currentVehicle)),
  },
  {
    type: 'Account (Device.owner lookup)',
    full: ACCOUNT,
    wrap: (s) => `{ devices(pageSize: 100) { list { id owner { ${s} } } } }`,
    items: (d) => present(d.devices.list.map((device: any) => device.owner)),
  },
  {
    type: 'Account (Group.owner lookup)',
    full: ACCOUNT,
    wrap: (s) => `{ groups { list { id owner { ${s} } } } }`,
    items: (d) => present(d.groups.list.map((group: any) => group.owner)),
  },
  {
    type: 'Device (root page)',
    full: DEVICE,
    wrap: (s) => `{ devices(pageSize: 100) { list { ${s} } } }`,
    items: (d) => d.devices.list,
  },
  {
    type: 'Device (Group.devices)',
    full: DEVICE,
    wrap: (s) => `{ groups { list { id devices { list { ${s} } } } } }`,
    items: (d) => d.groups.list.flatMap((g: any) => g.devices.list),
  },
  {
    type: 'Group (root page)',
    full: GROUP,
    wrap: (s) => `{ groups { list { ${s} } } }`,
    items: (d) => d.groups.list,
  },
  {
    type: 'Group (Device.groups)',
    full: GROUP,
    wrap: (s) => `{ devices(pageSize: 100) { list { id groups { list { ${s} } } } } }`,
    items: (d) => d.devices.list.flatMap((device: any) => device.groups.list),
  },
  {
    type: 'Driver (root page)',
    full: DRIVER,
    wrap: (s) => `{ drivers(pageSize: 100) { list { ${s} } } }`,
    items: (d) => d.drivers.list,
  },
  {
    type: 'Driver (Group.drivers)',
    full: DRIVER,
    wrap: (s) => `{ groups { list { id drivers { list { ${s} } } } } }`,
    items: (d) => d.groups.list.flatMap((g: any) => g.drivers.list),
  },
  {
    type: 'Trip (Device.trips)',
    full: TRIP,
    wrap: (s) => `{ devices(pageSize: 100) { list { id trips(pageSize: 50) { list { ${s} } } } } }`,
    items: (d) => d.devices.list.flatMap((device: any) => device.trips.list),
  },
  {
    type: 'Trip (Driver.trips)',
    full: TRIP,
    wrap: (s) => `{ drivers { list { id trips(pageSize: 50) { list { ${s} } } } } }`,
    items: (d) => d.drivers.list.flatMap((driver: any) => driver.trips.list),
  },
];

describe('column projection', () => {
  for (const projection of cases)
    test(`${projection.type}: each field alone answers what it answers with every column read`, () =>
      assertProjectionKeepsAnswers(h.as(F.alice), projection));

  test('the devices page of `id status owner` reads only its columns (the projection is in force)', async () => {
    h.statements.reset();
    dataOf(await h.as(F.alice)('{ devices(pageSize: 5) { list { id status owner { id } } } }'));
    const devices = h.statements.statements.find((sql) => sql.includes('"fleet"."devices"'));
    assert.ok(devices, 'the devices were read');
    assert.match(devices, /owner_id/);
    assert.doesNotMatch(devices, /serial_number|last_connection_at|created_at/);
  });

  test('one request, two selections of the same lookup: each projection loads its own rows', async () => {
    h.statements.reset();
    const data = dataOf(
      await h.as(F.alice)(`{
        narrow: devices(pageSize: 20) { list { currentVehicle { plate } } }
        wide: devices(pageSize: 20) { list { currentVehicle { plate vin make } } } }`),
    );
    const wide = present(data.wide.list.map((device: any) => device.currentVehicle));
    assert.ok(wide.length > 0 && wide.every((vehicle: any) => vehicle.vin && vehicle.make));
    assert.deepEqual(
      present(data.narrow.list.map((device: any) => device.currentVehicle)).map(
        (vehicle: any) => vehicle.plate,
      ),
      wide.map((vehicle: any) => vehicle.plate),
    );
    const lookups = h.statements.statements.filter(
      (sql) => sql.includes('"fleet"."vehicles"') && sql.includes('any('),
    );
    assert.equal(lookups.length, 2, 'one statement per projection');
    assert.ok(
      lookups.some((sql) => /"plate"/.test(sql) && !/"vin"|odometer_km/.test(sql)),
      'the narrow one reads its columns',
    );
  });
});

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { schemaEnums } from '@fleetgraph/subgraph-kit';
import type { Knex } from 'knex';
import { ImportError, importDataset } from './import';
import { migratedDatabase, tableCounts, type MigratedDatabase } from './test-helpers';
import {
  datasetActivity as activity,
  datasetServices as services,
  VEHICLE_TYPES,
} from '@fleetgraph/fleet-core';

const example = JSON.parse(readFileSync(new URL('../examples/small-fleet.json', import.meta.url), 'utf8'));
const copy = () => structuredClone(example);
const O = 'organizations[0]';
let db: MigratedDatabase;

before(async () => {
  db = await migratedDatabase('seed_import_activity');
});
after(async () => {
  await db?.drop();
});

/** Row count of every table of the fleet and sso schemas. */
async function everyTable(knex: Knex): Promise<Record<string, number>> {
  const { rows } = await knex.raw<{ rows: Array<{ name: string }> }>(
    `select table_schema || '.' || table_name as name from information_schema.tables
      where table_schema in ('fleet', 'sso') and table_type = 'BASE TABLE' order by 1`,
  );
  const counts: Record<string, number> = {};
  for (const { name } of rows) counts[name] = Number((await knex(name).count({ n: '*' }))[0]!.n);
  return counts;
}

/** Imports `input`, expects the refusal, and checks that no table of fleet or sso changed. */
async function refused(input: unknown): Promise<string[]> {
  const before = await everyTable(db.knex);
  const error = await importDataset(db.knex, input).then(
    () => assert.fail('the import should have been refused'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof ImportError, String(error));
  assert.deepEqual(await everyTable(db.knex), before, 'nothing may be written');
  return error.problems;
}

/** Every expected problem is reported (exact text or pattern) and nothing else is. */
function assertProblems(problems: string[], expected: Array<string | RegExp>) {
  const matches = (p: string, e: string | RegExp) => (typeof e === 'string' ? p === e : e.test(p));
  const missing = expected.filter((e) => !problems.some((p) => matches(p, e))).map(String);
  const unexpected = problems.filter((p) => !expected.some((e) => matches(p, e)));
  assert.deepEqual({ missing, unexpected }, { missing: [], unexpected: [] }, problems.join('\n'));
}

const at = (latitude: number, longitude: number) => ({ latitude, longitude });

describe('import of what trips and devices record, preferences, feedbacks, requests and catalogs', () => {
  test('the dataset enumerations are those of the fleet-core SDL', () => {
    // fleet-core's own enums and the shared ones its schema uses (VehicleTypeName).
    const dir = fileURLToPath(new URL('../../../apps/fleet-core/src/schema/', import.meta.url));
    const sdl = new Map([...schemaEnums(dir)].map(([name, values]) => [name, [...values].sort()]));
    const pairs: Array<[string, readonly string[]]> = [
      ['TripHarshKind', activity.HARSH_KINDS],
      ['DeviceHistoryEvent', activity.DEVICE_HISTORY_EVENTS],
      ['BatteryState', activity.BATTERY_STATES],
      ['LogfetchStatus', activity.LOGFETCH_STATUSES],
      ['RemoteDiagStatus', activity.REMOTE_DIAG_STATUSES],
      ['ProfilePrivacyLevel', activity.PRIVACY_LEVELS],
      ['ProfileDeviceModeName', activity.DEVICE_MODES],
      ['FunctionNameType', activity.LPA_FUNCTIONS],
      ['AlertChannel', activity.ALERT_CHANNELS],
      ['AlertDigest', activity.ALERT_DIGESTS],
      ['MetricCategory', activity.METRIC_CATEGORIES],
      ['MetricDataType', activity.METRIC_DATA_TYPES],
      ['VehicleTypeName', VEHICLE_TYPES],
      ['VehicleAlertType', services.ALERT_TYPES],
      ['VehicleAlertSeverity', services.ALERT_SEVERITIES],
      ['VehicleAlertFeedbackStatus', services.FEEDBACK_STATUSES],
      ['OnboardingRequestStatus', services.ONBOARDING_REQUEST_STATUSES],
    ];
    for (const [name, values] of pairs) assert.deepEqual([...values].sort(), sdl.get(name), name);
  });

  test('invalid harshes, overspeeds and trip metadata: every problem with its path, nothing written', async () => {
    const bad = copy();
    const trips = bad.organizations[0].trips;
    trips[0].harshes[0].occurredAt = '2026-11-20T07:50:00Z';
    trips[0].harshes.push({
      occurredAt: '2026-11-20T07:30:00Z',
      kind: 'SKID',
      intensityG: 0,
      speedKmh: 95,
      position: at(50.87, 4.42),
    });
    trips[1].overspeeds[0].endedAt = '2026-11-20T09:31:10Z';
    trips[1].overspeeds.push({
      startedAt: '2026-11-20T09:50:00Z',
      endedAt: '2026-11-20T10:05:00Z',
      maxSpeedKmh: 85,
      speedLimitKmh: 90,
      distanceKm: 40,
      position: at(51.01, 4.47),
    });
    trips[2].overspeeds.push({
      startedAt: '2026-11-20T16:53:00Z',
      endedAt: '2026-11-20T16:54:00Z',
      maxSpeedKmh: 100,
      speedLimitKmh: 90,
      distanceKm: 1.6,
      position: at(50.93, 4.41),
    });
    trips[0].metadata[1].key = 'purpose';
    trips[2].metadata[0].updatedAt = '2026-11-20T17:00:00Z';
    trips[2].metadata[0].author = 'Peter';

    const t = `${O}.trips`;
    assertProblems(await refused(bad), [
      `${t}[0].harshes[0].occurredAt: 2026-11-20T07:50:00Z is outside its trip (2026-11-20T07:05:00Z to 2026-11-20T07:41:00Z)`,
      /^organizations\[0\]\.trips\[0\]\.harshes\[1\]\.kind: invalid kind "SKID": expected one of ACCELERATION, BRAKING/,
      `${t}[0].harshes[1].intensityG: intensityG must be above 0`,
      `${t}[0].harshes[1].speedKmh: speedKmh 95 is above the trip's maxSpeedKmh 82`,
      `${t}[1].overspeeds[0].endedAt: an overspeed must end after it starts (2026-11-20T09:31:10Z)`,
      `${t}[1].overspeeds[1].endedAt: 2026-11-20T10:05:00Z is outside its trip (2026-11-20T09:10:00Z to 2026-11-20T10:02:00Z)`,
      `${t}[1].overspeeds[1].maxSpeedKmh: maxSpeedKmh 85 must be above speedLimitKmh 90`,
      `${t}[1].overspeeds[1].distanceKm: distanceKm 40 is more than the trip's distanceKm 31.5`,
      `${t}[1].overspeeds[1].distanceKm: 40 km in 900 s is an average of 160.0 km/h, above its maxSpeedKmh 85`,
      `${t}[2].overspeeds[1]: overlaps ${t}[2].overspeeds[0] (one overspeed at a time)`,
      `${t}[0].metadata[1].key: duplicate metadata key "purpose" in this trip (also at ${t}[0].metadata[0].key)`,
      `${t}[2].metadata[0].updatedAt: updatedAt is before createdAt (2026-11-20T17:20:00Z)`,
      /^organizations\[0\]\.trips\[2\]\.metadata\[0\]: .*"author"/,
    ]);
  });

  test('invalid device history, fields, readings and battery annotations: all listed, nothing written', async () => {
    const bad = copy();
    const [d0, d1] = bad.organizations[0].devices;
    d0.history[0].event = 'EXPLODED';
    d0.history[1].vehicle = 'NO-SUCH-VAN';
    d0.history[4].vehicle = '1-ABC-123';
    d0.fields.push({ name: 'ODOMETER', unit: 'mi' });
    d0.fields[1].lastValue = 50;
    d0.fields[2].lastValue = 12.5;
    d0.fields[2].lastRecordedAt = '2026-11-21T00:00:00Z';
    d0.readings.push({ field: 'COOLANT_TEMPERATURE', recordedAt: '2026-11-20T17:00:00Z', value: 92 });
    d0.readings.push({ ...d0.readings[2] });
    d0.batteryAnnotations[1].recordedAt = '2026-11-20T16:30:00Z';
    d0.batteryAnnotations[2].state = 'FLAT';
    d0.batteryAnnotations[3].voltage = -1;
    d1.lastPosition.latitude = 91;
    d1.readings[0].field = 'SOC';

    const d = `${O}.devices`;
    assertProblems(await refused(bad), [
      /^organizations\[0\]\.devices\[0\]\.history\[0\]\.event: invalid event "EXPLODED": expected one of CONNECTED/,
      `${d}[0].history[1].vehicle: unknown vehicle "NO-SUCH-VAN" (expected a vehicle id, VIN or plate of this organization)`,
      `${d}[0].history[4].vehicle: only INSTALLED and REMOVED events have a vehicle (this one is FIRMWARE_UPDATED)`,
      `${d}[0].fields[3].name: duplicate field "ODOMETER" (also at ${d}[0].fields[0].name)`,
      `${d}[0].fields[1]: lastValue and lastRecordedAt go together: give both, or neither to take the latest reading`,
      `${d}[0].fields[2].lastRecordedAt: 2026-11-21T00:00:00Z is before the field's latest reading (${d}[0].readings[5])`,
      `${d}[0].readings[6].field: unknown field "COOLANT_TEMPERATURE" (expected the name of one of this device's fields: ODOMETER, FUEL_LEVEL, BATTERY_VOLTAGE)`,
      `${d}[0].readings[7]: duplicate reading of field FUEL_LEVEL at 2026-11-20T16:20:00.000Z (also at ${d}[0].readings[2])`,
      `${d}[0].batteryAnnotations[1].recordedAt: duplicate battery annotation at 2026-11-20T16:30:00.000Z (also at ${d}[0].batteryAnnotations[0].recordedAt)`,
      /^organizations\[0\]\.devices\[0\]\.batteryAnnotations\[2\]\.state: invalid state "FLAT": expected one of OK, LOW/,
      `${d}[0].batteryAnnotations[3].voltage: voltage must be above 0`,
      `${d}[1].lastPosition.latitude: latitude must be between -90 and 90`,
      `${d}[1].readings[0].field: unknown field "SOC" (expected the name of one of this device's fields: STATE_OF_CHARGE)`,
    ]);
  });

  test('invalid log fetches, remote diagnostics, privacy and mode periods and eSIM operations: all listed', async () => {
    const bad = copy();
    const [d0, d1, d2, d3, d4] = bad.organizations[0].devices;
    d0.logFetches[0].action = 'CORE_DUMP';
    d0.logFetches[0].completedAt = '2026-11-18T08:00:00Z';
    d0.logFetches.push({
      action: 'MODEM_LOGS',
      status: 'COMPLETED',
      requestedBy: 'ghost@initech.example',
      requestedAt: '2026-11-19T10:00:00Z',
    });
    d2.logFetches[0].fileUrl = 'https://files.initech.example/logs/can.tgz';
    d2.logFetches.push({
      action: 'SYSTEM_LOGS',
      status: 'IN_PROGRESS',
      requestedAt: '2026-11-04T08:00:00Z',
      completedAt: '2026-11-04T08:30:00Z',
    });
    d0.remoteDiags[0].dtcCodes = ['P04O1'];
    d0.remoteDiags.push({ status: 'COMPLETED', requestedAt: '2026-11-20T08:00:00Z' });
    d1.remoteDiags[0].vin = 'WV1ZZZEB9RH022871';
    d1.remoteDiags[0].batteryVoltage = 12.2;
    d1.profilePrivacies[0].endedAt = '2025-09-01T00:00:00Z';
    d3.profilePrivacies.push({ level: 'FULL', startedAt: '2026-03-01T00:00:00Z' });
    d0.profileModes[0].endedAt = '2025-03-04T07:12:00Z';
    d2.profileModes[1].startedAt = '2026-11-01T00:00:00Z';
    d4.profileModes[0].mode = 'HIBERNATE';
    d0.lpaOperations[0].iccid = '8932042000';
    d0.lpaOperations[0].smdpAddress = 'smdp.other.example';
    delete d0.lpaOperations[1].nickname;
    d0.lpaOperations.push({
      functionName: 'ENABLE_PROFILE',
      status: 'SUCCEEDED',
      requestedAt: '2026-01-10T10:00:00Z',
      updatedAt: '2026-01-10T09:00:00Z',
    });
    delete d4.lpaOperations[0].matchingId;

    const d = `${O}.devices`;
    assertProblems(await refused(bad), [
      `${d}[0].logFetches[0].action: unknown log-fetch action "CORE_DUMP" (expected the id of an action of logfetchActions or of the database: CAN_TRACE, MODEM_LOGS, SYSTEM_LOGS)`,
      `${d}[0].logFetches[0].completedAt: completedAt is before requestedAt (2026-11-18T09:00:00Z)`,
      `${d}[0].logFetches[1].requestedBy: unknown account "ghost@initech.example"`,
      `${d}[0].logFetches[1].completedAt: a COMPLETED log fetch needs completedAt`,
      `${d}[2].logFetches[0].fileUrl: only a COMPLETED log fetch has a fileUrl (this one is FAILED)`,
      `${d}[2].logFetches[1].completedAt: an IN_PROGRESS log fetch has no completedAt yet`,
      /^organizations\[0\]\.devices\[0\]\.remoteDiags\[0\]\.dtcCodes\[0\]: invalid fault code/,
      `${d}[0].remoteDiags[1].completedAt: a COMPLETED remote diagnostic needs completedAt`,
      `${d}[1].remoteDiags[0].vin: only a COMPLETED remote diagnostic has results (this one is NOT_SUPPORTED)`,
      `${d}[1].remoteDiags[0].batteryVoltage: only a COMPLETED remote diagnostic has results (this one is NOT_SUPPORTED)`,
      `${d}[1].profilePrivacies[0].endedAt: endedAt must be after startedAt (2025-10-01T09:00:00Z)`,
      `${d}[3].profilePrivacies[1]: a device has at most one open privacy level (without endedAt); also at ${d}[3].profilePrivacies[0]`,
      `${d}[0].profileModes[0].endedAt: endedAt must be after startedAt (2025-03-04T07:12:00Z)`,
      `${d}[2].profileModes[1]: overlaps ${d}[2].profileModes[0] (one mode at a time)`,
      /^organizations\[0\]\.devices\[4\]\.profileModes\[0\]\.mode: invalid mode "HIBERNATE": expected one of NORMAL/,
      `${d}[0].lpaOperations[0].iccid: invalid ICCID: expected 18 to 22 digits (the last one may be F)`,
      `${d}[0].lpaOperations[0].smdpAddress: "smdp.other.example" differs from the SM-DP+ address of activationCode ("smdp.proximus.example")`,
      `${d}[0].lpaOperations[1].nickname: SET_NICKNAME needs a nickname`,
      `${d}[0].lpaOperations[2].iccid: ENABLE_PROFILE needs the iccid of the profile`,
      `${d}[0].lpaOperations[2].updatedAt: updatedAt is before requestedAt (2026-01-10T10:00:00Z)`,
      `${d}[4].lpaOperations[0].activationCode: DOWNLOAD_PROFILE needs activationCode, or smdpAddress and matchingId`,
    ]);
  });

  test('invalid preferences, vehicle details, feedbacks, onboarding requests, role grants and catalogs: all listed', async () => {
    const bad = copy();
    const org = bad.organizations[0];
    org.accounts[1].alertPreference.channels = ['PUSH', 'SMS', 'PUSH'];
    org.accounts[1].alertPreference.quietHoursStart = '23:00';
    org.accounts[0].alertPreference.quietHoursEnd = '24:00';
    org.accounts[0].alertPreference.mutedTypes = ['EXCESSIVE_IDLING', 'METEOR'];
    org.vehicles[0].batteryCapacityKwh = 10;
    org.vehicles[1].fuelTankCapacityLiters = 60;
    org.vehicles[2].vehicleType = 'TRACTOR';
    org.vehicles[3].odometerUpdatedAt = '2026-11-21T07:10:00Z';
    const s = org.services;
    s.accountRoles[1].grantedBy = 'boss@initech.example';
    s.vehicleAlerts[0].feedbacks[0].account = 'nobody@initech.example';
    s.vehicleAlerts[0].feedbacks.push({ status: 'MAYBE', createdAt: '2026-11-01T00:00:00Z' });
    s.vehicleAlerts[1].device = '000000000000000';
    const distributor = s.distributors[0];
    distributor.provider.supportEmail = 'not-an-email';
    distributor.requests[0].device = '490154203237518';
    distributor.requests[0].scheduledAt = '2025-09-01T00:00:00Z';
    distributor.requests[1].vehicle = 'NOPE';
    distributor.requests[2].completedAt = '2026-11-20T00:00:00Z';
    distributor.requests.push({ status: 'SCHEDULED', requestedAt: '2026-11-19T00:00:00Z', vin: 'SHORT' });
    s.distributors.push({
      label: 'Speedy Antwerp',
      isActive: false,
      requests: [{ status: 'PENDING', plate: '2-ABC-001', requestedAt: '2026-11-18T09:00:00Z' }],
    });
    bad.metrics.push({ ...bad.metrics[0], id: 'obd.speed2' });
    bad.metrics[1].rawUnit = 'km';
    bad.metrics[2].category = 'TASTE';
    bad.logfetchActions[2].id = 'SYSTEM_LOGS';

    const a = `${O}.accounts`;
    const v = `${O}.vehicles`;
    const sv = `${O}.services`;
    const r = `${sv}.distributors[0].requests`;
    assertProblems(await refused(bad), [
      `${a}[1].alertPreference.quietHoursEnd: quietHoursStart and quietHoursEnd go together: give both or neither`,
      `${a}[1].alertPreference.channels[2]: duplicate channel "PUSH" (also at ${a}[1].alertPreference.channels[0])`,
      `${a}[1].alertPreference.channels[1]: the SMS channel needs the account's phone`,
      `${a}[0].alertPreference.quietHoursEnd: expected a time of day HH:MM between 00:00 and 23:59`,
      /^organizations\[0\]\.accounts\[0\]\.alertPreference\.mutedTypes\[1\]: invalid muted type "METEOR"/,
      `${v}[0].batteryCapacityKwh: a DIESEL vehicle has no traction battery`,
      `${v}[1].fuelTankCapacityLiters: an ELECTRIC vehicle has no fuel tank`,
      /^organizations\[0\]\.vehicles\[2\]\.vehicleType: invalid vehicleType "TRACTOR": expected one of CAR, VAN/,
      `${v}[3].odometerUpdatedAt: odometerUpdatedAt needs odometerKm`,
      `${sv}.accountRoles[1].grantedBy: unknown account "boss@initech.example"`,
      `${sv}.vehicleAlerts[0].feedbacks[0].account: unknown account "nobody@initech.example"`,
      /^organizations\[0\]\.services\.vehicleAlerts\[0\]\.feedbacks\[1\]\.status: invalid status "MAYBE"/,
      `${sv}.vehicleAlerts[0].feedbacks[1].createdAt: before the alert's startedAt (2026-11-20T19:05:00Z)`,
      `${sv}.vehicleAlerts[1].device: unknown device "000000000000000"`,
      `${sv}.distributors[0].provider.supportEmail: invalid email "not-an-email"`,
      `${r}[0].device: unknown device "490154203237518"`,
      `${r}[0].scheduledAt: before requestedAt (2025-09-22T08:00:00Z)`,
      `${r}[1].vehicle: unknown vehicle "NOPE"`,
      `${r}[1].vehicle: give either vehicle or plate/vin (plate and vin are copied from the vehicle)`,
      `${r}[2].completedAt: only a COMPLETED request has completedAt (this one is PENDING)`,
      `${r}[3].vin: VIN must be 17 characters of A-Z and 0-9 without I, O or Q`,
      `${r}[3].scheduledAt: a SCHEDULED request needs scheduledAt`,
      `${sv}.distributors[1].requests[0].status: distributor "Speedy Antwerp" is inactive: it cannot have PENDING requests`,
      `metrics[5].name: duplicate metric name "vehicle_speed" (also at metrics[0].name)`,
      `metrics[1].rawUnit: rawUnit is only for a unit other than unit (leave it out)`,
      /^metrics\[2\]\.category: invalid category "TASTE": expected one of POSITION/,
      `logfetchActions[2].id: duplicate log-fetch action id "SYSTEM_LOGS" (also at logfetchActions[0].id)`,
    ]);
  });

  test('the example imports: every new table gets its rows, with references and defaults resolved', async () => {
    const summary = await importDataset(db.knex, copy());
    const k = db.knex;
    const orgId = summary.imported[0]!.id;
    assert.deepEqual(
      {
        tripHarshes: summary.tripHarshes,
        tripOverspeeds: summary.tripOverspeeds,
        tripMetadata: summary.tripMetadata,
        deviceHistory: summary.deviceHistory,
        deviceFields: summary.deviceFields,
        readings: summary.readings,
        batteryAnnotations: summary.batteryAnnotations,
      },
      {
        tripHarshes: 2,
        tripOverspeeds: 2,
        tripMetadata: 3,
        deviceHistory: 9,
        deviceFields: 5,
        readings: 9,
        batteryAnnotations: 5,
      },
    );
    const expectedServices: Record<string, number> = {
      'fleet.metrics': 5,
      'fleet.logfetch_actions': 3,
      'fleet.account_alert_preferences': 2,
      'fleet.device_log_fetches': 2,
      'fleet.device_remote_diags': 2,
      'fleet.device_profile_privacies': 4,
      'fleet.device_profile_modes': 7,
      'fleet.lpa_operations': 3,
      'fleet.vehicle_alerts': 2,
      'fleet.vehicle_alert_feedbacks': 2,
      'fleet.onboarding_distributors': 1,
      'fleet.onboarding_requests': 3,
      'fleet.account_roles': 4,
    };
    const tables = await everyTable(k);
    for (const [table, n] of Object.entries(expectedServices)) {
      assert.equal(summary.services[table], n, table);
      assert.equal(tables[table], n, table);
    }
    const { imported: _i, durationMs: _d, services: _s, ...counts } = summary;
    assert.deepEqual(await tableCounts(k), counts);

    const accountId = async (email: string) => (await k('fleet.accounts').where({ email }).first('id')).id;
    const owner = await accountId('owner@initech.example');
    const lead = await accountId('antwerp.lead@initech.example');
    const vehicleId = async (plate: string) =>
      (await k('fleet.vehicles').where({ organization_id: orgId, plate }).first('id')).id;

    // Trips: harshes and overspeeds on the right trip and device, metadata with defaults.
    const trips = await k('fleet.trips').where({ device_id: '356938109001017' }).orderBy('started_at');
    const harsh = await k('fleet.trip_harshes').where({ trip_id: trips[0].id }).first();
    assert.equal(harsh.kind, 'BRAKING');
    assert.equal(harsh.device_id, '356938109001017');
    assert.equal(harsh.occurred_at.toISOString(), '2026-11-20T07:22:40.000Z');
    assert.ok(Math.abs(harsh.intensity_g - 0.41) < 1e-6);
    const overspeed = await k('fleet.trip_overspeeds').where({ trip_id: trips[1].id }).first();
    assert.deepEqual(
      [overspeed.max_speed_kmh, overspeed.speed_limit_kmh, overspeed.distance_m],
      [118, 90, 2600],
    );
    const metadata = await k('fleet.trip_metadata')
      .whereIn('trip_id', [trips[0].id, trips[2].id])
      .orderBy('key');
    assert.deepEqual(
      metadata.map((m) => [m.key, m.value, m.created_at.toISOString(), m.updated_at.toISOString()]),
      [
        ['costCentre', 'CC-BRU-01', '2026-11-20T17:20:00.000Z', '2026-11-21T08:00:00.000Z'],
        ['customer', 'ACME-42', '2026-11-20T07:41:00.000Z', '2026-11-20T07:41:00.000Z'],
        ['purpose', 'BUSINESS', '2026-11-20T07:41:00.000Z', '2026-11-20T07:41:00.000Z'],
      ],
    );

    // Device data: history with its vehicles, fields defaulted from the latest reading.
    const installed = await k('fleet.device_history')
      .where({ device_id: '356938109001017' })
      .whereIn('event', ['INSTALLED', 'REMOVED'])
      .orderBy('occurred_at');
    assert.deepEqual(
      installed.map((h) => [h.event, h.vehicle_id]),
      [
        ['INSTALLED', await vehicleId('1-EVB-402')],
        ['REMOVED', await vehicleId('1-EVB-402')],
        ['INSTALLED', await vehicleId('1-ABC-123')],
      ],
    );
    const fields = await k('fleet.device_fields').where({ device_id: '356938109001017' }).orderBy('name');
    assert.deepEqual(
      fields.map((f) => [f.name, f.unit, f.last_value, f.last_recorded_at.toISOString()]),
      [
        ['BATTERY_VOLTAGE', 'V', 12.6, '2026-11-21T07:30:00.000Z'],
        ['FUEL_LEVEL', '%', 54, '2026-11-20T17:15:00.000Z'],
        ['ODOMETER', 'km', 84210, '2026-11-20T17:15:00.000Z'],
      ],
    );
    const soc = await k('fleet.device_fields').where({ device_id: '356938109001025' }).first();
    assert.deepEqual([soc.last_value, soc.last_recorded_at.toISOString()], [64, '2026-11-20T19:05:00.000Z']);
    const odometer = await k('fleet.readings')
      .where({ device_id: '356938109001017', field: 'ODOMETER' })
      .orderBy('recorded_at', 'desc')
      .first();
    assert.deepEqual([odometer.value, odometer.latitude, odometer.longitude], [84210, 50.8467, 4.3525]);
    const cranking = await k('fleet.battery_annotations').where({ state: 'CRANKING' }).first();
    assert.ok(Math.abs(cranking.voltage - 10.1) < 1e-5);
    const device = await k('fleet.devices').where({ id: '356938109001017' }).first();
    assert.deepEqual(
      [device.last_latitude, device.last_longitude, device.last_position_at.toISOString()],
      [50.8467, 4.3525, '2026-11-20T17:15:00.000Z'],
    );

    // Device services.
    const fetches = await k('fleet.device_log_fetches').orderBy('requested_at');
    assert.deepEqual(
      fetches.map((f) => [f.device_id, f.action_id, f.status, f.requested_by, f.completed_at === null]),
      [
        ['356938109001033', 'CAN_TRACE', 'FAILED', lead, true],
        ['356938109001017', 'SYSTEM_LOGS', 'COMPLETED', owner, false],
      ],
    );
    const diag = await k('fleet.device_remote_diags').where({ status: 'COMPLETED' }).first();
    assert.deepEqual([diag.dtc_codes, diag.vin, diag.odometer_km], [['P0401'], 'WF0XXTTG3NK412345', 84102]);
    const privacy = await k('fleet.device_profile_privacies')
      .where({ device_id: '356938109001025' })
      .whereNull('ended_at')
      .first();
    assert.equal(privacy.level, 'NO_LOCATION');
    const modes = await k('fleet.device_profile_modes')
      .where({ device_id: '356938109001017' })
      .orderBy('started_at');
    assert.deepEqual(
      modes.map((m) => [m.mode, m.ended_at?.toISOString() ?? null]),
      [
        ['STORAGE', '2025-03-04T08:12:00.000Z'],
        ['NORMAL', null],
      ],
    );
    const lpa = await k('fleet.lpa_operations').orderBy('requested_at');
    assert.deepEqual(
      lpa.map((l) => [l.device_id, l.function_name, l.status, l.iccid, l.has_confirmation_code]),
      [
        ['356938109001017', 'DOWNLOAD_AND_ENABLE_PROFILE', 'SUCCEEDED', '89320420000012345678', false],
        ['356938109001017', 'SET_NICKNAME', 'SUCCEEDED', '89320420000012345678', false],
        ['356938109001058', 'DOWNLOAD_PROFILE', 'PENDING', null, true],
      ],
    );
    assert.equal(lpa[2].updated_at.toISOString(), lpa[2].requested_at.toISOString(), 'updatedAt defaults');

    // Accounts: alert preferences, roles granted by an account, sign-in times.
    const preferences = await k('fleet.account_alert_preferences').where({ account_id: owner }).first();
    assert.deepEqual(
      [
        preferences.channels,
        preferences.quiet_hours_start,
        preferences.quiet_hours_end,
        preferences.muted_types,
      ],
      [['EMAIL', 'SMS'], '22:00', '06:30', ['EXCESSIVE_IDLING']],
    );
    const leadPreferences = await k('fleet.account_alert_preferences').where({ account_id: lead }).first();
    assert.deepEqual(
      [leadPreferences.digest, leadPreferences.minimum_severity, leadPreferences.language],
      ['DAILY', 'CRITICAL', 'NL'],
    );
    const grants = await k('fleet.account_roles').where({ account_id: lead }).orderBy('role');
    assert.deepEqual(
      grants.map((g) => [g.role, g.granted_by]),
      [
        ['DISPATCHER', owner],
        ['WORKSHOP_MANAGER', owner],
      ],
    );
    const ownerRow = await k('fleet.accounts').where({ id: owner }).first();
    assert.equal(ownerRow.last_sign_in_at.toISOString(), '2026-11-21T07:48:00.000Z');

    // Feedbacks on the right alert, language defaulted from the author.
    const feedbacks = await k('fleet.vehicle_alert_feedbacks as f')
      .join('fleet.vehicle_alerts as a', 'a.id', 'f.alert_id')
      .orderBy('f.created_at')
      .select('a.device_id', 'f.account_id', 'f.status', 'f.language');
    assert.deepEqual(
      feedbacks.map((f) => [f.device_id, f.account_id, f.status, f.language]),
      [
        ['356938109001025', lead, 'CONFIRMED', 'NL'],
        ['356938109001017', owner, 'FALSE_POSITIVE', 'FR'],
      ],
    );

    // Onboarding requests: plate and VIN copied from the vehicle, or given.
    const requests = await k('fleet.onboarding_requests').orderBy('requested_at');
    assert.deepEqual(
      requests.map((r) => [r.status, r.device_id, r.plate, r.vin]),
      [
        ['COMPLETED', '356938109001025', '1-EVB-402', 'WV1ZZZEB9RH022871'],
        ['SCHEDULED', '356938109001058', '2-XYZ-845', 'WDB9066331S123456'],
        ['PENDING', null, '1-NEW-990', null],
      ],
    );
    const provider = await k('fleet.onboarding_providers').where({ code: 'NORAUTO' }).first();
    assert.equal(provider.support_email, 'pro@norauto.example');

    // Vehicles and catalogs.
    const van = await k('fleet.vehicles')
      .where({ id: await vehicleId('1-ABC-123') })
      .first();
    assert.deepEqual(
      [van.label, van.vehicle_type, van.registration_country, Number(van.fuel_tank_capacity_l)],
      ['Van 1', 'VAN', 'BE', 80],
    );
    const actions = await k('fleet.logfetch_actions').orderBy('position');
    assert.deepEqual(
      actions.map((a) => [a.id, a.position, a.default_duration_minutes]),
      [
        ['SYSTEM_LOGS', 1, 1440],
        ['CAN_TRACE', 2, 10],
        ['MODEM_LOGS', 3, null],
      ],
    );
    const battery = await k('fleet.metrics').where({ id: 'battery.voltage' }).first();
    assert.deepEqual([battery.unit, battery.raw_unit, battery.raw_factor], ['V', 'mV', 0.001]);
  });

  test("catalog entries already in the database conflict; another file refers to the database's log-fetch actions", async () => {
    const problems = await refused(copy());
    for (const expected of [
      'metrics[0].id: metric id "obd.vehicle_speed" already exists in the database (refer to it without listing it)',
      'metrics[0].name: metric name "vehicle_speed" already exists in the database (refer to it without listing it)',
      'logfetchActions[0].id: log-fetch action id "SYSTEM_LOGS" already exists in the database (refer to it without listing it)',
    ])
      assert.ok(problems.includes(expected), `missing: ${expected}\n${problems.join('\n')}`);

    const summary = await importDataset(db.knex, {
      logfetchActions: [
        { id: 'GPS_TRACE', name: 'GPS trace', description: 'Raw NMEA output of the receiver' },
      ],
      organizations: [
        {
          name: 'Hooli Vans',
          accounts: [{ email: 'ops@hooli.example', password: 'hooli-vans-1', fullName: 'Gavin Belson' }],
          groups: [{ label: 'Hooli', members: ['ops@hooli.example'] }],
          devices: [
            {
              id: '490154203237518',
              deviceType: 'OBD_DONGLE',
              groups: ['Hooli'],
              logFetches: [
                { action: 'CAN_TRACE', status: 'REQUESTED', requestedAt: '2026-11-21T09:00:00Z' },
                { action: 'GPS_TRACE', status: 'REQUESTED', requestedAt: '2026-11-21T09:05:00Z' },
              ],
            },
          ],
        },
      ],
    });
    assert.equal(summary.services['fleet.device_log_fetches'], 2);
    const gps = await db.knex('fleet.logfetch_actions').where({ id: 'GPS_TRACE' }).first();
    assert.equal(gps.position, 4, 'a new action without position goes after those of the database');
  });
});

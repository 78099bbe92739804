/**
 * Trips and device data over HTTP with known answers from the fixture: Device.trips / lastTrip /
 * tripSummary / harshes / overspeeds / vehicleSessions / history / fields / readings /
 * readingsAnon / batteryAnnotations / lastPosition / aggregatedData, Trip fields, Vehicle fields,
 * getMetadatum; isolation; statement count of a deep query independent of the page size.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { F } from './testing/fixture';
import { DEPOT_TRIPS, FT, depotTripFacts } from './testing/fixture-trips';
import { startHarness, type Harness } from './testing/harness';

let h: Harness;
before(async () => {
  // The statement-count test asks pages far over the query-cost limit (which the gateway and the
  // subgraph both enforce) on purpose: it proves batching, not what clients may ask.
  h = await startHarness('fleet_trips', { MAX_COST: '100000000' });
});
after(() => h.close());

const ok = (res: any) => {
  assert.equal(res.errors, undefined, JSON.stringify(res.errors));
  assert.ok(res.data, 'the query returned data');
  return res.data;
};
const depotDevice = () => F.depotDevices[0]!;

describe('Device trips', () => {
  test('trips newest first with every Trip field, and lastTrip', async () => {
    const data = ok(
      await h.as(F.alice)(
        `query($d: ID!) { device(id: $d) {
          lastTrip { id }
          trips(pageSize: 3) { count next list {
            id startedAt endedAt durationSeconds distanceKm maxSpeedKmh averageSpeedKmh idleDurationSeconds
            fuelUsedLiters startAddress endAddress
            startPosition { latitude longitude recordedAt } endPosition { latitude longitude }
            device { id } vehicle { id } driver { label }
          } }
        } }`,
        { d: depotDevice() },
      ),
    );
    const device = data.device;
    assert.deepEqual(device.lastTrip, { id: FT.depotTrip(29) });
    assert.equal(device.trips.count, DEPOT_TRIPS);
    assert.ok(device.trips.next);
    const facts = depotTripFacts(29);
    assert.deepEqual(device.trips.list[0], {
      id: facts.id,
      startedAt: facts.startedAt.toISOString(),
      endedAt: facts.endedAt.toISOString(),
      durationSeconds: 59 * 60,
      distanceKm: 49,
      maxSpeedKmh: 119,
      averageSpeedKmh: 49.8,
      idleDurationSeconds: 60,
      fuelUsedLiters: null,
      startAddress: 'Hafenstrasse 30, Hamburg',
      endAddress: null,
      startPosition: { latitude: 53.579, longitude: 9.99, recordedAt: facts.startedAt.toISOString() },
      endPosition: { latitude: 53.6, longitude: 10.079 },
      device: { id: depotDevice() },
      vehicle: { id: F.vehicles.depot[0] },
      driver: { label: 'Anna Becker' },
    });
    assert.deepEqual(
      device.trips.list.map((t: { id: string }) => t.id),
      [FT.depotTrip(29), FT.depotTrip(28), FT.depotTrip(27)],
    );
  });

  test('walking trips next visits all 30 newest first; the window arguments bound the start', async () => {
    const q = h.as(F.alice);
    const seen: string[] = [];
    let pageId: string | null = null;
    do {
      const res: any = await q(
        `query($d: ID!, $p: ID) { device(id: $d) { trips(pageSize: 7, pageId: $p) { next list { id } } } }`,
        { d: depotDevice(), p: pageId },
      );
      seen.push(...ok(res).device.trips.list.map((t: { id: string }) => t.id));
      pageId = res.data.device.trips.next;
    } while (pageId);
    assert.deepEqual(
      seen,
      Array.from({ length: DEPOT_TRIPS }, (_, i) => FT.depotTrip(DEPOT_TRIPS - 1 - i)),
    );
    const windowed = ok(
      await q(
        `query($d: ID!) { device(id: $d) {
          a: trips(startedAfter: "2026-03-11T08:00:00Z") { count }
          b: trips(startedBefore: "2026-03-11T08:00:00Z") { count }
          c: trips(startedAfter: "2026-03-11T00:00:00Z", startedBefore: "2026-03-21T00:00:00Z") { count list { id } }
        } }`,
        { d: depotDevice() },
      ),
    );
    assert.equal(windowed.device.a.count, 20);
    assert.equal(windowed.device.b.count, 10);
    assert.equal(windowed.device.c.count, 10);
    assert.equal(windowed.device.c.list[0].id, FT.depotTrip(19));
  });

  test('a trips pageId reused with another window is BAD_USER_INPUT', async () => {
    const q = h.as(F.alice);
    const first = ok(
      await q(`query($d: ID!) { device(id: $d) { trips(pageSize: 2) { next } } }`, { d: depotDevice() }),
    );
    const res = await q(
      `query($d: ID!, $p: ID) { device(id: $d) { trips(startedAfter: "2026-03-05T00:00:00Z", pageId: $p) { next } } }`,
      { d: depotDevice(), p: first.device.trips.next },
    );
    assert.equal(res.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
    for (const bad of ['"yesterday"', '"2026-13-45T00:00:00Z"']) {
      const res = await q(`query($d: ID!) { device(id: $d) { trips(startedAfter: ${bad}) { count } } }`, {
        d: depotDevice(),
      });
      assert.ok(res.errors?.length, bad);
      assert.notEqual(res.errors?.[0]?.extensions?.code, 'INTERNAL_SERVER_ERROR', JSON.stringify(res.errors));
      assert.match(res.errors![0]!.message, /DateTime|date/i);
    }
    const tooBig = await q(`query($d: ID!) { device(id: $d) { trips(pageSize: 201) { next } } }`, {
      d: depotDevice(),
    });
    assert.equal(tooBig.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
  });

  test('tripSummary over all time and over a period', async () => {
    const data = ok(
      await h.as(F.alice)(
        `query($d: ID!) { device(id: $d) {
          all: tripSummary { from to tripCount distanceKm drivingDurationSeconds idleDurationSeconds maxSpeedKmh
            averageSpeedKmh fuelUsedLiters harshCount overspeedCount firstTripStartedAt lastTripEndedAt }
          period: tripSummary(from: "2026-03-11T00:00:00Z", to: "2026-03-21T00:00:00Z") {
            from tripCount distanceKm harshCount overspeedCount maxSpeedKmh }
          none: tripSummary(from: "2027-01-01T00:00:00Z") { tripCount distanceKm maxSpeedKmh averageSpeedKmh firstTripStartedAt }
        } }`,
        { d: depotDevice() },
      ),
    );
    assert.deepEqual(data.device.all, {
      from: null,
      to: null,
      tripCount: 30,
      distanceKm: 1035,
      drivingDurationSeconds: 80100,
      idleDurationSeconds: 1800,
      maxSpeedKmh: 119,
      averageSpeedKmh: Math.round((1035 / (80100 / 3600)) * 10) / 10,
      fuelUsedLiters: 30,
      harshCount: 10,
      overspeedCount: 6,
      firstTripStartedAt: '2026-03-01T08:00:00.000Z',
      lastTripEndedAt: '2026-03-30T08:59:00.000Z',
    });
    assert.deepEqual(data.device.period, {
      from: '2026-03-11T00:00:00.000Z',
      tripCount: 10,
      distanceKm: 345,
      harshCount: 3,
      overspeedCount: 2,
      maxSpeedKmh: 109,
    });
    assert.deepEqual(data.device.none, {
      tripCount: 0,
      distanceKm: 0,
      maxSpeedKmh: null,
      averageSpeedKmh: null,
      firstTripStartedAt: null,
    });
  });

  test('harshes and overspeeds with their filters, on the device and on a trip', async () => {
    const data = ok(
      await h.as(F.alice)(
        `query($d: ID!) { device(id: $d) {
          harshes(pageSize: 2) { count list { tripId occurredAt kind intensityG speedKmh position { latitude longitude } } }
          braking: harshes(kinds: [BRAKING]) { count }
          early: harshes(occurredBefore: "2026-03-05T00:00:00Z") { count }
          overspeeds(pageSize: 1) { count list { tripId durationSeconds maxSpeedKmh speedLimitKmh distanceKm position { latitude } } }
          late: overspeeds(startedAfter: "2026-03-16T00:00:00Z") { count }
          lastTrip { harshes { list { kind } } overspeeds { count } }
        } }`,
        { d: depotDevice() },
      ),
    );
    const d = data.device;
    assert.equal(d.harshes.count, 10);
    assert.deepEqual(d.harshes.list[0], {
      tripId: FT.depotTrip(27),
      occurredAt: '2026-03-28T08:10:00.000Z',
      kind: 'ACCELERATION',
      intensityG: 0.45,
      speedKmh: 50,
      position: { latitude: 53.57, longitude: 10.01 },
    });
    assert.equal(d.braking.count, 5);
    assert.equal(d.early.count, 2);
    assert.equal(d.overspeeds.count, 6);
    assert.deepEqual(d.overspeeds.list[0], {
      tripId: FT.depotTrip(25),
      durationSeconds: 60,
      maxSpeedKmh: 72,
      speedLimitKmh: 50,
      distanceKm: 1.1,
      position: { latitude: 53.58 },
    });
    assert.equal(d.late.count, 3);
    assert.deepEqual(d.lastTrip, { harshes: { list: [] }, overspeeds: { count: 0 } });
  });

  test('trip metadata on the trip and by getMetadatum', async () => {
    const q = h.as(F.alice);
    const data = ok(
      await q(
        `query($d: ID!, $m: ID!, $g: ID!) {
          device(id: $d) { trips(startedBefore: "2026-03-02T00:00:00Z") { list { id harshes { list { kind } } metadata { count list { key value } } } } }
          getMetadatum(id: $m) { id key value tripId createdAt updatedAt }
          globex: getMetadatum(id: $g) { id }
          bad: getMetadatum(id: "not-a-uuid") { id }
        }`,
        { d: depotDevice(), m: FT.metadata.purpose, g: FT.metadata.globex },
      ),
    );
    const [first] = data.device.trips.list;
    assert.equal(first.id, FT.depotTrip(0));
    assert.deepEqual(first.harshes.list, [{ kind: 'BRAKING' }]);
    assert.deepEqual(first.metadata, {
      count: 2,
      list: [
        { key: 'customer', value: 'ACME-42' },
        { key: 'purpose', value: 'BUSINESS' },
      ],
    });
    assert.equal(data.getMetadatum.key, 'purpose');
    assert.equal(data.getMetadatum.value, 'BUSINESS');
    assert.equal(data.getMetadatum.tripId, FT.depotTrip(0));
    assert.equal(data.globex, null);
    assert.equal(data.bad, null);
  });
});

describe('Device data', () => {
  test('vehicleSessions, history, fields, lastPosition', async () => {
    const data = ok(
      await h.as(F.alice)(
        `query($d: ID!) { device(id: $d) {
          lastPosition { latitude longitude recordedAt }
          vehicleSessions { count list { startedAt endedAt vehicle { id } device { id } } }
          recent: vehicleSessions(startedAfter: "2025-12-01T00:00:00Z") { count }
          history { count list { occurredAt event reason vehicle { id } } }
          connections: history(events: [CONNECTED, DISCONNECTED], occurredAfter: "2026-03-01T08:00:00Z") { list { event reason } }
          fields { count list { name unit lastValue lastRecordedAt } }
          odometer: fields(names: ["ODOMETER"]) { list { name lastValue } }
        } }`,
        { d: depotDevice() },
      ),
    );
    const d = data.device;
    assert.deepEqual(d.lastPosition, {
      latitude: 53.6,
      longitude: 10.05,
      recordedAt: '2026-03-30T09:00:00.000Z',
    });
    assert.equal(d.vehicleSessions.count, 2);
    assert.deepEqual(d.vehicleSessions.list[0], {
      startedAt: '2026-01-01T00:00:00.000Z',
      endedAt: null,
      vehicle: { id: F.vehicles.depot[0] },
      device: { id: depotDevice() },
    });
    assert.equal(d.recent.count, 1);
    assert.equal(d.history.count, 4);
    assert.deepEqual(
      d.history.list.map((e: { event: string }) => e.event),
      ['DISCONNECTED', 'CONNECTED', 'INSTALLED', 'ONBOARDED'],
    );
    assert.deepEqual(d.history.list[2].vehicle, { id: F.vehicles.depot[0] });
    assert.deepEqual(d.connections.list, [{ event: 'DISCONNECTED', reason: 'SLEEP' }]);
    assert.equal(d.fields.count, 3);
    assert.deepEqual(
      d.fields.list.map((f: { name: string }) => f.name),
      ['BATTERY_VOLTAGE', 'FUEL_LEVEL', 'ODOMETER'],
    );
    assert.deepEqual(d.fields.list[0], {
      name: 'BATTERY_VOLTAGE',
      unit: 'V',
      lastValue: 12.6,
      lastRecordedAt: '2026-03-01T08:45:00.000Z',
    });
    assert.deepEqual(d.odometer.list, [{ name: 'ODOMETER', lastValue: 10450 }]);
  });

  test('readings and readingsAnon (no position, time truncated to the hour)', async () => {
    const data = ok(
      await h.as(F.alice)(
        `query($d: ID!) { device(id: $d) {
          readings(pageSize: 2) { count next list { field recordedAt value position { latitude longitude } } }
          fuel: readings(fields: ["FUEL_LEVEL"]) { count list { value } }
          late: readings(recordedAfter: "2026-03-01T08:25:00Z") { count }
          oldest: readings(recordedBefore: "2026-03-01T08:05:00Z") { list { position { latitude longitude recordedAt } } }
          readingsAnon(pageSize: 1, fields: ["ODOMETER"]) { count next list { field recordedHour value } }
          anonFrom: readingsAnon(recordedAfter: "2026-03-01T08:25:00Z") { count }
          anonNext: readingsAnon(recordedAfter: "2026-03-01T09:00:00Z") { count }
          anonUntil: readingsAnon(recordedBefore: "2026-03-01T08:59:59Z") { count }
          anonBefore: readingsAnon(recordedBefore: "2026-03-01T09:00:00Z") { count }
        } }`,
        { d: depotDevice() },
      ),
    );
    const d = data.device;
    assert.equal(d.readings.count, 10);
    assert.ok(d.readings.next);
    assert.deepEqual(d.readings.list[0], {
      field: 'ODOMETER',
      recordedAt: '2026-03-01T08:45:00.000Z',
      value: 10445,
      position: null,
    });
    assert.deepEqual(
      d.fuel.list.map((r: { value: number }) => r.value),
      [52, 54, 56, 58, 60],
    );
    assert.equal(d.late.count, 5);
    assert.deepEqual(d.oldest.list, [
      { position: { latitude: 53.55, longitude: 9.99, recordedAt: '2026-03-01T08:00:00.000Z' } },
    ]);
    assert.deepEqual(d.readingsAnon.list, [
      { field: 'ODOMETER', recordedHour: '2026-03-01T08:00:00.000Z', value: 10445 },
    ]);
    assert.equal(d.readingsAnon.count, 5);
    // Time bounds compare by the hour: moving a bound inside 08:00-09:00 changes nothing, so the
    // exact times (08:00, 08:05, ... 08:45) cannot be found by narrowing the window.
    assert.equal(d.anonFrom.count, 10);
    assert.equal(d.anonNext.count, 0);
    assert.equal(d.anonUntil.count, 0);
    assert.equal(d.anonBefore.count, 10);
    // The cursor carries the hour, never the exact recording time the answer hides.
    const [payload] = d.readingsAnon.next.split('.');
    const [key] = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    assert.equal(key[0], '2026-03-01T08:00:00.000Z');
    const rest = ok(
      await h.as(F.alice)(
        `query($d: ID!, $p: ID) { device(id: $d) { readingsAnon(pageId: $p, pageSize: 10, fields: ["ODOMETER"]) { next list { value } } } }`,
        { d: depotDevice(), p: d.readingsAnon.next },
      ),
    ).device.readingsAnon;
    assert.deepEqual(
      rest.list.map((r: { value: number }) => r.value),
      [10435, 10425, 10415, 10405],
    );
    assert.equal(rest.next, null);
  });

  test('batteryAnnotations in the parallel-list layout, paged', async () => {
    const q = h.as(F.alice);
    const first = ok(
      await q(
        `query($d: ID!) { device(id: $d) { batteryAnnotations(pageSize: 4) { count next ids recordedAts voltages states } } }`,
        { d: depotDevice() },
      ),
    ).device.batteryAnnotations;
    assert.equal(first.count, 6);
    assert.deepEqual(first.voltages, [10.2, 14.1, 11.5, 11.9]);
    assert.deepEqual(first.states, ['CRANKING', 'CHARGING', 'CRITICAL', 'LOW']);
    assert.equal(first.ids.length, 4);
    assert.equal(first.recordedAts[0], '2026-03-01T05:00:00.000Z');
    const second = ok(
      await q(
        `query($d: ID!, $p: ID) { device(id: $d) { batteryAnnotations(pageId: $p) { next voltages states } } }`,
        { d: depotDevice(), p: first.next },
      ),
    ).device.batteryAnnotations;
    assert.deepEqual(second, { next: null, voltages: [12.4, 12.6], states: ['OK', 'OK'] });
    const windowed = ok(
      await q(
        `query($d: ID!) { device(id: $d) { batteryAnnotations(recordedAfter: "2026-03-01T02:00:00Z", recordedBefore: "2026-03-01T04:00:00Z") { voltages } } }`,
        { d: depotDevice() },
      ),
    ).device.batteryAnnotations;
    assert.deepEqual(windowed.voltages, [11.5, 11.9]);
  });

  test('aggregatedData over all time and over a period', async () => {
    const data = ok(
      await h.as(F.alice)(
        `query($d: ID!) { device(id: $d) {
          all: aggregatedData { readingCount fieldCount lastReadingAt batteryAnnotationCount batteryVoltageMin
            batteryVoltageAvg batteryVoltageMax lowBatteryCount historyEventCount connectionCount }
          morning: aggregatedData(from: "2026-03-01T00:00:00Z", to: "2026-03-01T03:00:00Z") { readingCount batteryAnnotationCount lowBatteryCount historyEventCount }
        } }`,
        { d: depotDevice() },
      ),
    );
    assert.deepEqual(data.device.all, {
      readingCount: 10,
      fieldCount: 2,
      lastReadingAt: '2026-03-01T08:45:00.000Z',
      batteryAnnotationCount: 6,
      batteryVoltageMin: 10.2,
      batteryVoltageAvg: 12.117,
      batteryVoltageMax: 14.1,
      lowBatteryCount: 2,
      historyEventCount: 4,
      connectionCount: 1,
    });
    assert.deepEqual(data.device.morning, {
      readingCount: 0,
      batteryAnnotationCount: 3,
      lowBatteryCount: 1,
      historyEventCount: 0,
    });
  });
});

describe('the other side of every time window', () => {
  test('occurredBefore, occurredAfter, startedBefore, kinds on a trip, `to` alone', async () => {
    const data = ok(
      await h.as(F.alice)(
        `query($d: ID!, $v: ID!) {
          device(id: $d) {
            history(occurredBefore: "2026-01-01T00:00:00Z") { list { event } }
            harshes(occurredAfter: "2026-03-25T00:00:00Z") { count }
            overspeeds(startedBefore: "2026-03-11T00:00:00Z") { count }
            vehicleSessions(startedBefore: "2025-12-01T00:00:00Z") { list { vehicle { id } } }
            tripSummary(to: "2026-03-02T00:00:00Z") { tripCount distanceKm }
            aggregatedData(to: "2026-03-01T02:30:00Z") { batteryAnnotationCount readingCount historyEventCount }
            trips(startedBefore: "2026-03-05T00:00:00Z") { list { harshes(kinds: [ACCELERATION]) { list { kind } } } }
          }
          _entities(representations: [{ __typename: "Vehicle", id: $v }]) {
            ... on Vehicle { trips(startedBefore: "2026-03-03T00:00:00Z") { count } }
          }
        }`,
        { d: depotDevice(), v: F.vehicles.depot[0] },
      ),
    );
    const d = data.device;
    assert.deepEqual(d.history.list, [{ event: 'ONBOARDED' }]);
    assert.equal(d.harshes.count, 2);
    assert.equal(d.overspeeds.count, 2);
    assert.deepEqual(d.vehicleSessions.list, [{ vehicle: { id: F.vehicles.south[0] } }]);
    assert.deepEqual(d.tripSummary, { tripCount: 1, distanceKm: 20 });
    assert.deepEqual(d.aggregatedData, { batteryAnnotationCount: 3, readingCount: 0, historyEventCount: 2 });
    // trips 3, 2, 1, 0: only trip 3 has an ACCELERATION event (trip 0 has a BRAKING one).
    assert.deepEqual(
      d.trips.list.map((t: any) => t.harshes.list),
      [[{ kind: 'ACCELERATION' }], [], [], []],
    );
    assert.equal(data._entities[0].trips.count, 2);
  });
});

describe('Vehicle fields', () => {
  test('label, type, capacities, odometer time, currentDriver, lastTrip and trips', async () => {
    const data = ok(
      await h.as(F.alice)(
        `query($v: ID!) { _entities(representations: [{ __typename: "Vehicle", id: $v }]) { ... on Vehicle {
          label vehicleType registrationCountry fuelTankCapacityLiters batteryCapacityKwh odometerUpdatedAt
          currentDriver { label } lastTrip { id }
          trips(pageSize: 1, startedAfter: "2026-03-15T00:00:00Z") { count list { id } }
        } } }`,
        { v: F.vehicles.depot[0] },
      ),
    );
    assert.deepEqual(data._entities[0], {
      label: 'Van 1',
      vehicleType: 'VAN',
      registrationCountry: 'DE',
      fuelTankCapacityLiters: 80,
      batteryCapacityKwh: null,
      odometerUpdatedAt: '2026-03-30T09:00:00.000Z',
      currentDriver: { label: 'Anna Becker' },
      lastTrip: { id: FT.depotTrip(29) },
      trips: { count: 16, list: [{ id: FT.depotTrip(29) }] },
    });
  });
});

describe('trips of another organization', () => {
  test('carol gets null for the Acme device, its trips and metadata; her own device shows only her trips', async () => {
    const data = ok(
      await h.as(F.carol)(
        `query($d: ID!, $g: ID!, $m: ID!) {
          acme: device(id: $d) { id trips { count } }
          own: device(id: $g) { trips { count list { driver { label } vehicle { id } } } lastTrip { id }
            tripSummary { tripCount } harshes { count } readings { count } vehicleSessions { count } }
          getMetadatum(id: $m) { id }
          devices { list { id lastTrip { id } } }
        }`,
        { d: depotDevice(), g: F.globexDevices[0], m: FT.metadata.purpose },
      ),
    );
    assert.equal(data.acme, null);
    assert.equal(data.getMetadatum, null);
    assert.equal(data.own.trips.count, 3);
    assert.deepEqual(data.own.trips.list[0], {
      driver: { label: 'Greta Globex' },
      vehicle: { id: F.vehicles.globex },
    });
    assert.deepEqual(data.own.lastTrip, { id: FT.globexTrip(2) });
    assert.equal(data.own.tripSummary.tripCount, 3);
    assert.equal(data.own.harshes.count, 0);
    assert.ok(data.devices.list.every((d: { id: string }) => F.globexDevices.includes(d.id)));
  });

  test('_entities for an Acme Vehicle and Device as carol are null, so none of their trips leak', async () => {
    const res = ok(
      await h.as(F.carol)(
        `query($r: [_Any!]!) { _entities(representations: $r) { ... on Vehicle { trips { count } } ... on Device { trips { count } } } }`,
        {
          r: [
            { __typename: 'Vehicle', id: F.vehicles.depot[0] },
            { __typename: 'Device', id: depotDevice() },
          ],
        },
      ),
    );
    assert.deepEqual(res._entities, [null, null]);
  });
});

describe('statement count', () => {
  test('groups -> devices -> currentVehicle -> trips sends the same statements for page sizes 2 and 120', async () => {
    const q = h.as(F.alice);
    const query = `query($n: Int) { groups(labels: ["North Depot", "South"], pageSize: $n) { list { label
      devices(pageSize: $n) { count list { id lastTrip { id } tripSummary { tripCount }
        currentVehicle { plate currentDriver { label } trips(pageSize: $n) { count list { id distanceKm driver { label } device { id } } } } } } } } }`;
    h.statements.reset();
    const small = ok(await q(query, { n: 2 }));
    const few = h.statements.count;
    h.statements.reset();
    const big = ok(await q(query, { n: 120 }));
    const many = h.statements.count;
    const depot = big.groups.list.find((g: { label: string }) => g.label === 'North Depot');
    assert.equal(depot.devices.list.length, 120);
    const withTrips = depot.devices.list.find((d: { id: string }) => d.id === depotDevice());
    assert.equal(withTrips.currentVehicle.trips.list.length, 30);
    assert.equal(small.groups.list.length, 2);
    assert.equal(small.groups.list[0].devices.list[0].currentVehicle.trips.list.length, 2);
    assert.equal(many, few, `statements grew with the page size: ${few} -> ${many}`);
    assert.ok(
      many <= 12,
      `expected at most 12 statements, got ${many}: ${h.statements.statements.join('\n')}`,
    );
  });
});

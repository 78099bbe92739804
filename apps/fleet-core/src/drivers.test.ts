/** driver, drivers (every filter and sort, paging under each sort) and the Driver fields, over HTTP. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { F } from './testing/fixture';
import { DEPOT_TRIPS, FT } from './testing/fixture-trips';
import { startHarness, type Harness } from './testing/harness';

let h: Harness;
before(async () => {
  h = await startHarness('fleet_drivers');
});
after(() => h.close());

const labels = (res: any, field = 'drivers') => {
  assert.equal(res.errors, undefined, JSON.stringify(res.errors));
  return res.data[field].list.map((d: { label: string }) => d.label);
};
/** The data of a query that must succeed (absence checks first assert the query worked). */
const ok = (res: any) => {
  assert.equal(res.errors, undefined, JSON.stringify(res.errors));
  assert.ok(res.data, 'the query returned data');
  return res.data;
};
const labelsOf = (parent: any, field: string) => parent[field].list.map((d: { label: string }) => d.label);

describe('drivers', () => {
  test('lists the visible drivers by label, with count', async () => {
    const all = await h.as(F.alice)('{ drivers { count list { label } } }');
    assert.deepEqual(labels(all), ['Anna Becker', 'Bruno Keller', 'Carla Diaz', 'Dieter Engel']);
    assert.equal(all.data.drivers.count, 4);
    assert.deepEqual(labels(await h.as(F.bob)('{ drivers { list { label } } }')), [
      'Anna Becker',
      'Bruno Keller',
    ]);
    assert.deepEqual(labels(await h.as(F.carol)('{ drivers { list { label } } }')), ['Greta Globex']);
  });

  test('each filter, and filters combined', async () => {
    const q = async (args: string, variables?: Record<string, unknown>) =>
      labels(
        await h.as(F.alice)(
          `query${variables ? '($ids: [ID!])' : ''} { drivers(${args}) { list { label } } }`,
          variables,
        ),
      );
    assert.deepEqual(await q('ids: $ids', { ids: [FT.drivers.bruno, FT.drivers.greta, 'nope'] }), [
      'Bruno Keller',
    ]);
    assert.deepEqual(await q('idKeys: ["K-001", "K-004", "G-001"]'), ['Anna Becker', 'Dieter Engel']);
    assert.deepEqual(await q('labels: ["Carla Diaz", "Greta Globex"]'), ['Carla Diaz']);
    assert.deepEqual(await q('auxiliaryDeviceSerialNumbers: ["BADGE-002", "BADGE-G01"]'), ['Bruno Keller']);
    assert.deepEqual(await q('auxiliaryDeviceMacAddressHashs: ["mac-aaa"]'), ['Anna Becker']);
    assert.deepEqual(await q('auxiliaryDeviceIdKeys: ["FOB-001"]'), ['Anna Becker']);
    assert.deepEqual(await q('hasVehicle: true'), ['Anna Becker', 'Carla Diaz']);
    assert.deepEqual(await q('hasVehicle: false'), ['Bruno Keller', 'Dieter Engel']);
    assert.deepEqual(await q('active: false'), ['Carla Diaz']);
    assert.deepEqual(await q('hasVehicle: true, active: true'), ['Anna Becker']);
    assert.deepEqual(await q('idKeys: ["K-001", "K-002"], auxiliaryDeviceSerialNumbers: ["BADGE-002"]'), [
      'Bruno Keller',
    ]);
    assert.deepEqual(await q('auxiliaryDeviceIdKeys: ["FOB-001"], hasVehicle: false'), []);
  });

  test('every sort field in both directions', async () => {
    const sorted = async (sort: string) =>
      labels(await h.as(F.alice)(`{ drivers(sort: ${sort}) { list { label } } }`));
    assert.deepEqual(await sorted('[{ field: LABEL, direction: DESC }]'), [
      'Dieter Engel',
      'Carla Diaz',
      'Bruno Keller',
      'Anna Becker',
    ]);
    assert.deepEqual(await sorted('[{ field: CREATED_AT, direction: DESC }]'), [
      'Dieter Engel',
      'Carla Diaz',
      'Bruno Keller',
      'Anna Becker',
    ]);
    assert.deepEqual(await sorted('[{ field: UPDATED_AT }]'), [
      'Dieter Engel',
      'Bruno Keller',
      'Anna Becker',
      'Carla Diaz',
    ]);
    assert.deepEqual(await sorted('[{ field: ID_KEY, direction: ASC }]'), [
      'Carla Diaz',
      'Anna Becker',
      'Bruno Keller',
      'Dieter Engel',
    ]);
    assert.deepEqual(await sorted('[{ field: ID_KEY, direction: DESC }]'), [
      'Dieter Engel',
      'Bruno Keller',
      'Anna Becker',
      'Carla Diaz',
    ]);
  });

  test('paging with pageSize 1 walks every driver once in the order of each sort, mixed directions included', async () => {
    const sorts = [
      '[{ field: LABEL }]',
      '[{ field: CREATED_AT, direction: DESC }]',
      '[{ field: UPDATED_AT, direction: ASC }]',
      '[{ field: ID_KEY, direction: DESC }, { field: LABEL, direction: ASC }]',
      '[{ field: ID_KEY, direction: ASC }, { field: CREATED_AT, direction: DESC }]',
    ];
    for (const sort of sorts) {
      const q = h.as(F.alice);
      const full = labels(await q(`{ drivers(sort: ${sort}) { list { label } } }`));
      const walked: string[] = [];
      let pageId: string | null = null;
      do {
        const res: any = await q(
          `query($p: ID) { drivers(sort: ${sort}, pageSize: 1, pageId: $p) { list { label } next } }`,
          { p: pageId },
        );
        walked.push(...labels(res));
        pageId = res.data.drivers.next;
      } while (pageId);
      assert.deepEqual(walked, full, sort);
    }
  });

  test('a pageId of another sort or filter, a repeated sort field and a pageSize over 500 are BAD_USER_INPUT', async () => {
    const q = h.as(F.alice);
    const first = await q('{ drivers(sort: [{ field: LABEL }], pageSize: 1) { next } }');
    const next = first.data.drivers.next;
    for (const [query, variables] of [
      ['query($p: ID) { drivers(sort: [{ field: CREATED_AT }], pageId: $p) { next } }', { p: next }],
      ['query($p: ID) { drivers(sort: [{ field: LABEL }], active: true, pageId: $p) { next } }', { p: next }],
      ['{ drivers(sort: [{ field: LABEL }, { field: LABEL, direction: DESC }]) { next } }', {}],
      ['{ drivers(pageSize: 501) { next } }', {}],
    ] as const) {
      const res = await q(query, variables);
      assert.equal(res.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT', query);
      assert.equal(res.data?.drivers ?? null, null);
    }
  });
});

describe('driver', () => {
  test('by id, with every field', async () => {
    const res = await h.as(F.alice)(
      `query($id: ID) { driver(id: $id) {
        id label idKey createdAt updatedAt active
        userProfile { email } userContact { email }
        currentVehicle { id } defaultVehicle { id }
        vehicles { count list { id } } currentVehicles { list { id } }
        groups { list { label } }
        lastTrip { id }
        trips(pageSize: 2) { count list { id } }
        vehicleSessions { count list { startedAt endedAt vehicle { id } driver { label } } }
      } }`,
      { id: FT.drivers.anna },
    );
    assert.equal(res.errors, undefined, JSON.stringify(res.errors));
    const d = res.data.driver;
    assert.equal(d.label, 'Anna Becker');
    assert.equal(d.idKey, 'K-001');
    assert.equal(d.createdAt, '2026-01-01T00:00:00.000Z');
    assert.equal(d.updatedAt, '2026-01-20T00:00:00.000Z');
    assert.equal(d.active, true);
    assert.deepEqual(d.userProfile, { email: F.bob.email });
    assert.deepEqual(d.userContact, { email: F.alice.email });
    assert.deepEqual(d.currentVehicle, { id: F.vehicles.depot[0] });
    assert.deepEqual(d.defaultVehicle, { id: F.vehicles.depot[0] });
    assert.equal(d.vehicles.count, 2);
    assert.deepEqual(
      d.vehicles.list.map((v: { id: string }) => v.id).sort(),
      [F.vehicles.depot[0], F.vehicles.south[0]].sort(),
    );
    assert.deepEqual(d.currentVehicles.list, [{ id: F.vehicles.depot[0] }]);
    assert.deepEqual(d.groups.list, [{ label: 'North Depot' }]);
    assert.deepEqual(d.lastTrip, { id: FT.depotTrip(DEPOT_TRIPS - 1) });
    assert.equal(d.trips.count, DEPOT_TRIPS);
    assert.deepEqual(d.trips.list, [{ id: FT.depotTrip(29) }, { id: FT.depotTrip(28) }]);
    assert.equal(d.vehicleSessions.count, 2);
    assert.deepEqual(d.vehicleSessions.list[0], {
      startedAt: '2026-02-01T00:00:00.000Z',
      endedAt: null,
      vehicle: { id: F.vehicles.depot[0] },
      driver: { label: 'Anna Becker' },
    });
  });

  test('driver trips and sessions take a start window', async () => {
    const res = await h.as(F.alice)(
      `query($id: ID) { driver(id: $id) {
        trips(startedAfter: "2026-03-11T00:00:00Z", startedBefore: "2026-03-21T00:00:00Z") { count list { id } }
        vehicleSessions(startedBefore: "2026-01-15T00:00:00Z") { list { vehicle { id } } }
      } }`,
      { id: FT.drivers.anna },
    );
    assert.equal(res.data.driver.trips.count, 10);
    assert.equal(res.data.driver.trips.list[0].id, FT.depotTrip(19));
    assert.deepEqual(res.data.driver.vehicleSessions.list, [{ vehicle: { id: F.vehicles.south[0] } }]);
  });

  test('without id: the driver profile of the signed-in account, else null', async () => {
    const bob = ok(await h.as(F.bob)('{ driver { label } }'));
    assert.deepEqual(bob.driver, { label: 'Anna Becker' });
    const alice = ok(await h.as(F.alice)('{ driver { label } }'));
    assert.equal(alice.driver, null);
  });

  test('Account.drivers, driverProfiles, driverContacts and Group.drivers', async () => {
    const res = await h.as(F.alice)(
      `query($alice: ID, $bob: ID, $depot: ID!) {
        alice: account(id: $alice) { drivers { count list { label } } driverContacts { list { label } } driverProfiles { list { label } } }
        bob: account(id: $bob) { drivers { list { label } } driverProfiles { list { label } } }
        group(id: $depot) { drivers { count list { label } } }
      }`,
      { alice: F.alice.uid, bob: F.bob.uid, depot: F.groups.depot },
    );
    assert.equal(res.errors, undefined, JSON.stringify(res.errors));
    assert.equal(res.data.alice.drivers.count, 4);
    assert.deepEqual(labelsOf(res.data.alice, 'driverContacts'), ['Anna Becker', 'Bruno Keller']);
    assert.deepEqual(labelsOf(res.data.alice, 'driverProfiles'), []);
    assert.deepEqual(labelsOf(res.data.bob, 'drivers'), ['Anna Becker', 'Bruno Keller']);
    assert.deepEqual(labelsOf(res.data.bob, 'driverProfiles'), ['Anna Becker']);
    assert.deepEqual(labelsOf(res.data.group, 'drivers'), ['Anna Becker', 'Bruno Keller']);
    assert.equal(res.data.group.drivers.count, 2);
  });
});

describe('drivers of another organization', () => {
  test('are null by id, absent from lists and from every nested path', async () => {
    const q = h.as(F.carol);
    const res = await q(
      `query($anna: ID, $ids: [ID!]) {
        driver(id: $anna) { label }
        drivers(ids: $ids) { count list { label } }
        byBadge: drivers(auxiliaryDeviceSerialNumbers: ["BADGE-001"]) { count }
        account { drivers { list { label } } driverProfiles { list { label } } driverContacts { list { label } } }
      }`,
      { anna: FT.drivers.anna, ids: [FT.drivers.anna, FT.drivers.bruno] },
    );
    assert.equal(res.errors, undefined, JSON.stringify(res.errors));
    assert.equal(res.data.driver, null);
    assert.deepEqual(res.data.drivers, { count: 0, list: [] });
    assert.equal(res.data.byBadge.count, 0);
    assert.deepEqual(res.data.account.drivers.list, [{ label: 'Greta Globex' }]);
    assert.deepEqual(res.data.account.driverProfiles.list, [{ label: 'Greta Globex' }]);
    assert.deepEqual(res.data.account.driverContacts.list, []);
  });

  test('bob (North only) sees Anna but not her South vehicle, session or the South drivers', async () => {
    const res = await h.as(F.bob)(
      `query($anna: ID, $carla: ID) {
        anna: driver(id: $anna) { vehicles { count list { id } } vehicleSessions { count } }
        carla: driver(id: $carla) { label }
      }`,
      { anna: FT.drivers.anna, carla: FT.drivers.carla },
    );
    const data = ok(res);
    assert.deepEqual(data.anna.vehicles, { count: 1, list: [{ id: F.vehicles.depot[0] }] });
    assert.equal(data.anna.vehicleSessions.count, 1);
    assert.equal(data.carla, null);
  });

  test('a direct _entities call resolves an invisible Driver to null', async () => {
    const query = `query($r: [_Any!]!) { _entities(representations: $r) { ... on Driver { id label } } }`;
    const representations = [
      { __typename: 'Driver', id: FT.drivers.anna },
      { __typename: 'Driver', id: FT.drivers.greta },
      { __typename: 'Driver', id: 'not-a-uuid' },
    ];
    const asCarol = await h.as(F.carol)(query, { r: representations });
    assert.equal(asCarol.errors, undefined, JSON.stringify(asCarol.errors));
    assert.deepEqual(asCarol.data._entities, [null, { id: FT.drivers.greta, label: 'Greta Globex' }, null]);
    const asAlice = ok(await h.as(F.alice)(query, { r: representations }));
    assert.deepEqual(asAlice._entities, [{ id: FT.drivers.anna, label: 'Anna Becker' }, null, null]);
  });
});

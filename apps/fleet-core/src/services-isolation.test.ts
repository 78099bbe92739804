/**
 * Isolation of the services domains: an account of another organization (carol, Globex) gets
 * null for every Acme object asked by id, only Globex rows in every list, and nothing of Acme
 * through nested paths or direct `_entities` calls.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { F } from './testing/fixture';
import { FT } from './testing/fixture-trips';
import { S } from './testing/services-fixture';
import { startHarness, type Harness } from './testing/harness';

let h: Harness;
before(async () => {
  h = await startHarness('fleet_services_isolation');
});
after(() => h.close());

const ok = (res: { errors?: unknown; data?: any }) => {
  assert.equal(res.errors, undefined, JSON.stringify(res.errors));
  assert.ok(res.data, 'the query returned data');
  return res.data;
};

describe('another organization gets nothing of Acme', () => {
  test('every single-object root query answers null for an Acme id', async () => {
    const data = ok(
      await h.as(F.carol)(
        `query($desc: ID!, $tpl: ID!, $booking: ID!, $campaign: ID!, $dist: ID!, $svc: ID!, $imei: ID!, $dd: ID!, $dr: ID!) {
          account: description(subject: ACCOUNT, id: $desc) { id }
          device: description(subject: DEVICE, id: $dd) { id }
          driver: description(subject: DRIVER, id: $dr) { id }
          alertTemplate(id: $tpl) { id }
          booking(id: $booking) { id }
          campaign(id: $campaign) { id }
          distributor(id: $dist) { id }
          driverService(id: $svc) { id }
          lpa(imei: $imei, functionName: GET_EID, parameters: {}) { id status }
        }`,
        {
          desc: S.descriptions.alice,
          dd: S.descriptions.device,
          dr: S.descriptions.anna,
          tpl: S.templates.battery,
          booking: S.bookings.b1,
          campaign: S.campaigns.firmware,
          dist: S.distributors.hamburg,
          svc: S.driverServices.tyres,
          imei: F.depotDevices[0],
        },
      ),
    );
    for (const [field, value] of Object.entries(data)) assert.equal(value, null, field);
  });

  test('every list root query holds only Globex rows', async () => {
    const data = ok(
      await h.as(F.carol)(`{
        alertTemplates { count list { id } }
        alertFeedbacks { count list { id } }
        bookings { count list { id userEmail } }
        campaigns(archived: true) { count list { id } }
        clientIdentifications { count list { id } }
        distributors { count list { id } }
        driverServices { count list { id } }
      }`),
    );
    const ids = (page: { list: { id: string }[] }) => page.list.map((r) => r.id);
    assert.deepEqual(ids(data.alertTemplates), [S.templates.globex]);
    assert.deepEqual(ids(data.alertFeedbacks), [S.feedbacks.globex]);
    assert.deepEqual(data.bookings.list, [{ id: S.bookings.b4, userEmail: F.carol.email }]);
    assert.deepEqual(ids(data.campaigns), [S.campaigns.globex]);
    assert.deepEqual(ids(data.clientIdentifications), [S.clientIdentifications.globex]);
    assert.deepEqual(ids(data.distributors), [S.distributors.lyon]);
    assert.deepEqual(ids(data.driverServices), [S.driverServices.globex]);
    for (const page of Object.values(data) as { count: number }[]) assert.equal(page.count, 1);
  });

  test('filters naming Acme rows find nothing', async () => {
    const data = ok(
      await h.as(F.carol)(
        `query($alerts: [ID!], $dist: ID, $acc: ID) {
          alertFeedbacks(alertIds: $alerts) { count list { id } }
          byCode: clientIdentifications(code: "ACME-001") { count list { id } }
          byDistributor: clientIdentifications(distributorId: $dist) { count list { id } }
          byAccount: clientIdentifications(defaultAccountId: $acc) { count list { id } }
          driverServices(label: "Tyre") { count list { id } }
        }`,
        { alerts: [S.alerts.battery, S.alerts.fuel], dist: S.distributors.hamburg, acc: F.alice.uid },
      ),
    );
    for (const [field, page] of Object.entries(data) as [string, { count: number; list: unknown[] }][]) {
      assert.deepEqual(page, { count: 0, list: [] }, field);
    }
  });

  test('nested paths from Globex objects lead to Globex rows only', async () => {
    const data = ok(
      await h.as(F.carol)(
        `query($d: ID!, $g: ID!, $dist: ID!, $c: ID!, $dr: ID!) {
          account { descriptions { list { value } } workshops { list { name } } distributors { list { label } }
            roles { name } alertPreference { digest } }
          device(id: $d) { descriptions { list { value } } alerts { list { type } } alertsState { activeCount }
            logFetches { list { status } } remoteDiags { list { status } } profilePrivacies { list { level } }
            profilePrivacy { level } profileModes { list { mode } } profileMode { mode } }
          group(id: $g) { descriptions { count } alerts { count list { id } } }
          distributor(id: $dist) { staff { list { fullName } } requests { list { device { id } } } workshop { name } }
          campaign(id: $c) { devicesStatus { deviceId } }
          driver(id: $dr) { descriptions { list { value } } }
        }`,
        {
          d: F.globexDevices[0],
          g: F.groups.globex,
          dist: S.distributors.lyon,
          c: S.campaigns.globex,
          dr: FT.drivers.greta,
        },
      ),
    );
    assert.deepEqual(data.account, {
      descriptions: { list: [{ value: 'GX' }] },
      workshops: { list: [{ name: 'Garage Lyon Centre' }] },
      distributors: { list: [{ label: 'Norauto Lyon' }] },
      roles: [{ name: 'FLEET_MANAGER' }],
      alertPreference: { digest: 'WEEKLY' },
    });
    assert.deepEqual(data.device, {
      descriptions: { list: [{ value: 'GX-1' }] },
      alerts: { list: [{ type: 'CRASH_DETECTED' }] },
      alertsState: { activeCount: 1 },
      logFetches: { list: [{ status: 'REQUESTED' }] },
      remoteDiags: { list: [{ status: 'REQUESTED' }] },
      profilePrivacies: { list: [{ level: 'PRIVATE' }] },
      profilePrivacy: { level: 'PRIVATE' },
      profileModes: { list: [{ mode: 'TRANSPORT' }] },
      profileMode: { mode: 'TRANSPORT' },
    });
    assert.deepEqual(data.group, {
      descriptions: { count: 0 },
      alerts: { count: 1, list: [{ id: S.alerts.globex }] },
    });
    assert.deepEqual(data.distributor, {
      staff: { list: [{ fullName: 'Luc Lyon' }] },
      requests: { list: [{ device: { id: F.globexDevices[0] } }] },
      workshop: { name: 'Garage Lyon Centre' },
    });
    assert.deepEqual(data.campaign.devicesStatus, [{ deviceId: F.globexDevices[0] }]);
    assert.deepEqual(data.driver.descriptions.list, [{ value: 'B' }]);
  });

  test('nested paths from Acme objects are closed: the parents are null', async () => {
    const data = ok(
      await h.as(F.carol)(
        `query($d: ID!, $g: ID!, $a: ID!, $dr: ID!) {
          device(id: $d) { alerts { count } logFetches { count } }
          group(id: $g) { alerts { count } descriptions { count } }
          account(id: $a) { roles { name } workshops { count } }
          driver(id: $dr) { descriptions { count } }
        }`,
        { d: F.depotDevices[0], g: F.groups.hq, a: F.alice.uid, dr: FT.drivers.anna },
      ),
    );
    assert.deepEqual(data, { device: null, group: null, account: null, driver: null });
  });

  test('direct _entities calls with services fields resolve Acme entities to null', async () => {
    const data = ok(
      await h.as(F.carol)(
        `query($reps: [_Any!]!) { _entities(representations: $reps) {
          ... on Device { id alerts { count } alertsState { activeCount } profileMode { mode } }
          ... on Group { id alerts { count } }
          ... on Account { id alertPreference { digest } roles { name } }
          ... on Vehicle { id descriptions { count } }
          ... on Driver { id descriptions { count } }
        } }`,
        {
          reps: [
            { __typename: 'Device', id: F.depotDevices[0] },
            { __typename: 'Group', id: F.groups.hq },
            { __typename: 'Account', id: F.alice.uid },
            { __typename: 'Vehicle', id: F.vehicles.depot[0] },
            { __typename: 'Driver', id: FT.drivers.anna },
            { __typename: 'Device', id: F.globexDevices[0] },
          ],
        },
      ),
    );
    assert.deepEqual(data._entities.slice(0, 5), [null, null, null, null, null]);
    assert.deepEqual(data._entities[5], {
      id: F.globexDevices[0],
      alerts: { count: 1 },
      alertsState: { activeCount: 1 },
      profileMode: { mode: 'TRANSPORT' },
    });
  });
});

describe('descriptions of drivers', () => {
  test('Driver.descriptions and description(subject: DRIVER) for a driver the caller sees', async () => {
    const data = ok(
      await h.as(F.bob)(
        `query($dr: ID!, $id: ID!) {
          driver(id: $dr) { descriptions { count list { label value } } }
          description(subject: DRIVER, id: $id) { value }
        }`,
        { dr: FT.drivers.anna, id: S.descriptions.anna },
      ),
    );
    assert.deepEqual(data, {
      driver: { descriptions: { count: 1, list: [{ label: 'Licence class', value: 'C1E' }] } },
      description: { value: 'C1E' },
    });
  });
});

describe('onboarding requests of a distributor follow device visibility', () => {
  const query = `query($id: ID!) { distributor(id: $id) {
    requests { count list { id plate vin notes device { id } } } } }`;
  const requestsOf = async (user: typeof F.alice) =>
    ok(await h.as(user)(query, { id: S.distributors.hamburg })).distributor.requests as {
      count: number;
      list: { id: string; plate: string | null; device: { id: string } | null }[];
    };

  test('a depot-restricted account neither lists nor counts a request for a device of another group', async () => {
    for (const user of [S.dave, F.bob]) {
      const requests = await requestsOf(user);
      assert.deepEqual(
        requests.list.map((r) => r.id),
        [S.requests.depot],
        user.email,
      );
      assert.equal(requests.count, 1, user.email);
      assert.ok(!requests.list.some((r) => r.plate === 'HH-SO-300'), 'no plate of the south request');
    }
  });

  test('an ADMIN sees every request, with and without a device', async () => {
    const requests = await requestsOf(F.alice);
    assert.deepEqual(
      requests.list.map((r) => [r.id, r.device?.id ?? null]),
      [
        [S.requests.noDevice, null],
        [S.requests.south, F.southDevices[0]],
        [S.requests.depot, F.depotDevices[0]],
      ],
    );
    assert.equal(requests.count, 3);
  });

  test('a request with no device yet is for ADMIN and FLEET_MANAGER only', async () => {
    await h.knex('fleet.account_roles').insert({ account_id: S.dave.uid, role: 'FLEET_MANAGER' });
    try {
      const requests = await requestsOf(S.dave);
      assert.deepEqual(
        requests.list.map((r) => r.id),
        [S.requests.noDevice, S.requests.depot],
      );
      assert.equal(requests.count, 2);
    } finally {
      await h.knex('fleet.account_roles').where({ account_id: S.dave.uid, role: 'FLEET_MANAGER' }).delete();
    }
  });
});

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { F } from './testing/fixture';
import { startHarness, type Harness } from './testing/harness';

let h: Harness;
before(async () => {
  h = await startHarness('fleet_visibility');
});
after(() => h.close());

/** The data of a query that must succeed: a leak or absence check on a failed query proves nothing. */
const ok = (res: { errors?: unknown; data?: any }) => {
  assert.equal(res.errors, undefined, JSON.stringify(res.errors));
  assert.ok(res.data, 'the query returned data');
  return res.data;
};
const labels = (page: { list: { label: string }[] }) => page.list.map((g) => g.label).sort();

describe('what an account sees', () => {
  test('account without id is the signed-in account, with the groups it has access to', async () => {
    const res = await h.as(F.alice)('{ account { id email fullName groups { count list { label } } } }');
    assert.equal(res.errors, undefined);
    assert.equal(res.data.account.id, F.alice.uid);
    assert.equal(res.data.account.fullName, 'Alice Admin');
    assert.deepEqual(labels(res.data.account.groups), ['Acme HQ', 'North', 'North Depot', 'South']);
    assert.equal(res.data.account.groups.count, 4);
  });

  test('a member of a sub-group sees that group, its descendants and their assets only', async () => {
    const data = ok(
      await h.as(F.bob)('{ groups { list { label } } devices(pageSize: 500) { count list { id } } }'),
    );
    assert.deepEqual(labels(data.groups), ['North', 'North Depot']);
    assert.equal(data.devices.count, 120);
    assert.ok(data.devices.list.every((d: { id: string }) => F.depotDevices.includes(d.id)));
  });

  test('another organization sees none of them: not by id, not in lists, not nested', async () => {
    const carol = h.as(F.carol);
    const byId = await carol(
      `query($g: ID!, $d: ID!, $a: ID!) { group(id: $g) { id } device(id: $d) { id } account(id: $a) { id } }`,
      { g: F.groups.hq, d: F.depotDevices[0], a: F.alice.uid },
    );
    assert.deepEqual(ok(byId), { group: null, device: null, account: null });

    const missing = await carol(
      '{ group(id: "00000000-0000-4000-8000-00000000dead") { id } device(id: "nope") { id } }',
    );
    assert.deepEqual(
      ok(missing),
      { group: null, device: null },
      'an invisible id answers exactly like a missing one',
    );

    const lists = ok(
      await carol(
        '{ groups { list { id label } } devices(pageSize: 500) { list { id } } accounts { list { email } } }',
      ),
    );
    assert.deepEqual(labels(lists.groups), ['Globex Root']);
    assert.deepEqual(lists.devices.list.map((d: { id: string }) => d.id).sort(), [...F.globexDevices].sort());
    assert.deepEqual(
      lists.accounts.list.map((a: { email: string }) => a.email),
      [F.carol.email],
    );

    const nested = await carol(
      `{ account { groups { list { devices(pageSize: 500) { list { id owner { email } currentVehicle { vin } } } children { list { id } } parents { list { id } } } } } }`,
    );
    const seen = JSON.stringify(ok(nested));
    assert.ok(seen.includes(F.globexDevices[0]!), "the nested query reached carol's own devices");
    for (const id of [...F.depotDevices, F.groups.hq, F.alice.email, F.bob.email])
      assert.ok(!seen.includes(id), `leaked ${id}`);
  });

  test('a direct _entities call resolves invisible entities to null', async () => {
    const query = `query($r: [_Any!]!) { _entities(representations: $r) { ... on Device { id } ... on Group { id label } ... on Account { email } ... on Vehicle { vin } } }`;
    const representations = [
      { __typename: 'Device', id: F.depotDevices[0] },
      { __typename: 'Group', id: F.groups.hq },
      { __typename: 'Account', id: F.alice.uid },
      { __typename: 'Vehicle', id: F.vehicles.depot[0] },
      { __typename: 'Device', id: F.globexDevices[0] },
    ];
    const asCarol = await h.as(F.carol)(query, { r: representations });
    assert.deepEqual(ok(asCarol)._entities, [null, null, null, null, { id: F.globexDevices[0] }]);
    const asAlice = ok(await h.as(F.alice)(query, { r: representations }));
    assert.deepEqual(asAlice._entities.slice(0, 2), [
      { id: F.depotDevices[0] },
      { id: F.groups.hq, label: 'Acme HQ' },
    ]);
    assert.equal(asAlice._entities[4], null);
  });

  test('a device owner outside the viewer reach is null, the device itself visible', async () => {
    const res = await h.as(F.bob)(`query($id: ID!) { device(id: $id) { id owner { email } } }`, {
      id: F.depotDevices[1],
    });
    assert.equal(ok(res).device.owner.email, F.bob.email);
    const south = await h.as(F.bob)(`query($id: ID!) { device(id: $id) { id } }`, { id: F.southDevices[0] });
    assert.equal(ok(south).device, null);
  });
});

describe('direct calls without valid credentials', () => {
  test('a subgraph refuses a request without a token', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/graphql',
      payload: { query: '{ account { id } }' },
    });
    assert.equal(res.statusCode, 401);
    assert.equal(res.json().errors[0].extensions.code, 'UNAUTHENTICATED');
    assert.equal(res.json().data, null);
  });

  test('a subgraph refuses a token of another issuer', async () => {
    const token = await h.issuer.token(F.alice, { issuer: 'http://evil.example' });
    const res = await h.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { authorization: `Bearer ${token}` },
      payload: { query: '{ account { id } }' },
    });
    assert.equal(res.statusCode, 401);
  });
});

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { F } from './testing/fixture';
import { FT } from './testing/fixture-trips';
import { S } from './testing/services-fixture';
import { startHarness, type Harness } from './testing/harness';

let h: Harness;
before(async () => {
  h = await startHarness('fleet_queries');
});
after(() => h.close());

describe('root query arguments', () => {
  test('accounts filters combine: email exact case-insensitive, fullName substring, ids', async () => {
    const q = h.as(F.alice);
    const byEmail = await q('{ accounts(email: "BOB@acme.example") { list { email } } }');
    assert.deepEqual(byEmail.data.accounts.list, [{ email: F.bob.email }]);
    const byName = await q('{ accounts(fullName: "ali") { list { fullName } } }');
    assert.deepEqual(byName.data.accounts.list, [{ fullName: 'Alice Admin' }]);
    const combined = await q(
      `query($ids: [ID!]) { accounts(ids: $ids, shortName: "bo") { list { email } } }`,
      { ids: [F.alice.uid, F.bob.uid] },
    );
    assert.deepEqual(combined.data.accounts.list, [{ email: F.bob.email }]);
    const phone = await q('{ accounts(phone: "+33100000001") { count list { email } } }');
    assert.deepEqual(phone.data.accounts, { count: 1, list: [{ email: F.alice.email }] });
  });

  test('groups by labels, ids and hierarchy levels', async () => {
    const q = h.as(F.alice);
    const regions = await q('{ groups(hierarchyLevels: [REGION]) { list { label hierarchyLevel tags } } }');
    assert.deepEqual(regions.data.groups.list, [
      { label: 'North', hierarchyLevel: 'REGION', tags: ['region'] },
      { label: 'South', hierarchyLevel: 'REGION', tags: ['region'] },
    ]);
    const byLabel = await q('{ groups(labels: ["South", "Globex Root"]) { list { label } } }');
    assert.deepEqual(byLabel.data.groups.list, [{ label: 'South' }]);
    const byId = await q(`query($ids: [ID!]) { groups(ids: $ids) { list { label owner { email } } } }`, {
      ids: [F.groups.hq],
    });
    assert.deepEqual(byId.data.groups.list, [{ label: 'Acme HQ', owner: { email: F.alice.email } }]);
  });

  test('devices filters: onboarded, statuses, deviceTypes, product properties', async () => {
    const q = h.as(F.alice);
    const count = async (args: string) =>
      (await q(`{ devices${args ? `(${args})` : ''} { count } }`)).data.devices.count;
    assert.equal(await count(''), 127);
    assert.equal(await count('onboarded: true'), 60 + 4);
    assert.equal(await count('statuses: [DISCONNECTED]'), 24 + 2);
    assert.equal(await count('deviceTypes: ["HARDWIRED"]'), 40 + 3);
    assert.equal(await count('productNetworks: [NB_IOT]'), 30 + 2);
    assert.equal(await count('hasWifi: true'), 90 + 5);
    assert.equal(await count('productNames: ["Tracker NB"], statuses: [DISCONNECTED]'), 6 + 1);
    assert.equal(await count('productMarkets: [NA]'), 0);
    const byIds = await q(
      `query($ids: [ID]) { devices(ids: $ids) { list { id product { name network market hasWifi } } } }`,
      {
        ids: [F.southDevices[0], null, F.globexDevices[0]],
      },
    );
    assert.deepEqual(byIds.data.devices.list, [
      {
        id: F.southDevices[0],
        product: { name: 'Tracker NB', network: 'NB_IOT', market: 'GLOBAL', hasWifi: false },
      },
    ]);
  });
});

describe('argument values PostgreSQL cannot take', () => {
  test('devices(ids) with 70,000 ids is BAD_USER_INPUT naming the variable and the limit', async () => {
    // Short ids, so that the body stays under the 1 MiB limit and the list reaches the subgraph.
    const ids = Array.from({ length: 70_000 }, (_, i) => String(i));
    const res = await h.as(F.alice)('query($ids: [ID!]) { devices(ids: $ids) { count list { id } } }', {
      ids,
    });
    assert.equal(res.errors?.length, 1, JSON.stringify(res.errors));
    assert.deepEqual(res.errors![0]!.extensions, {
      code: 'BAD_USER_INPUT',
      variable: 'ids',
      limit: 1000,
      measured: 70_000,
    });
    assert.match(res.errors![0]!.message, /\$ids.*1000/);
  });

  test('a NUL character in device(id) or accounts(email) is BAD_USER_INPUT', async () => {
    const q = h.as(F.alice);
    const literal = await q('{ device(id: "a\\u0000b") { id } }');
    assert.equal(literal.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT', JSON.stringify(literal.errors));
    assert.equal(literal.errors?.[0]?.extensions?.argument, 'id');
    const variable = await q('query($e: String) { accounts(email: $e) { list { id } } }', {
      e: 'bob\u0000@acme.example',
    });
    assert.equal(variable.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT', JSON.stringify(variable.errors));
    assert.equal(variable.errors?.[0]?.extensions?.variable, 'e');
  });
});

describe('ids are uuids whatever their case', () => {
  test('an uppercase uuid finds its object by id, like list filters do', async () => {
    const q = h.as(F.alice);
    const upper = (id: string) => id.toUpperCase();
    const res = await q(
      `query($g: ID!, $a: ID!, $dr: ID!, $ids: [ID!], $dist: ID!, $reps: [_Any!]!) {
        group(id: $g) { id label }
        account(id: $a) { id email }
        driver(id: $dr) { id }
        groups(ids: $ids) { list { id } }
        distributor(id: $dist) { id label }
        _entities(representations: $reps) { ... on Group { id label } ... on Vehicle { id } }
      }`,
      {
        g: upper(F.groups.hq),
        a: upper(F.bob.uid),
        dr: upper(FT.drivers.anna),
        ids: [upper(F.groups.hq)],
        dist: upper(S.distributors.hamburg),
        reps: [
          { __typename: 'Group', id: upper(F.groups.south) },
          { __typename: 'Vehicle', id: upper(F.vehicles.south[0]!) },
        ],
      },
    );
    assert.equal(res.errors, undefined, JSON.stringify(res.errors));
    assert.deepEqual(res.data, {
      group: { id: F.groups.hq, label: 'Acme HQ' },
      account: { id: F.bob.uid, email: F.bob.email },
      driver: { id: FT.drivers.anna },
      groups: { list: [{ id: F.groups.hq }] },
      distributor: { id: S.distributors.hamburg, label: 'Norauto Hamburg' },
      _entities: [{ id: F.groups.south, label: 'South' }, { id: F.vehicles.south[0] }],
    });
  });

  test('the same uuid in two cases finds the same object', async () => {
    const res = await h.as(F.alice)(
      `query($a: ID!, $b: ID!) { a: group(id: $a) { id } b: group(id: $b) { id } }`,
      { a: F.groups.north, b: F.groups.north.toUpperCase() },
    );
    assert.deepEqual(res.data, { a: { id: F.groups.north }, b: { id: F.groups.north } });
  });
});

describe('nested fields', () => {
  test('group parents, children, users, vehicles; device vehicles and groups; vehicle current device', async () => {
    const q = h.as(F.alice);
    const res = await q(
      `query($id: ID!, $d: ID!) {
        group(id: $id) { label parents { list { label } } children { list { label } } users { list { email } }
          vehicles { count list { vin plate year fuelType currentDevice { id } groups { list { label } } } } }
        device(id: $d) { currentVehicle { id } vehicles { list { id } } groups { list { label } } }
      }`,
      { id: F.groups.north, d: F.depotDevices[0] },
    );
    assert.equal(res.errors, undefined);
    const group = res.data.group;
    assert.deepEqual(group.parents.list, [{ label: 'Acme HQ' }]);
    assert.deepEqual(group.children.list, [{ label: 'North Depot' }]);
    assert.deepEqual(group.users.list, [{ email: F.bob.email }]);
    assert.equal(group.vehicles.count, 0, 'vehicles are placed in the depot, not the region');
    const device = res.data.device;
    assert.equal(device.currentVehicle.id, F.vehicles.depot[0]);
    assert.deepEqual(
      device.vehicles.list.map((v: { id: string }) => v.id).sort(),
      [F.vehicles.depot[0], F.vehicles.south[0]].sort(),
    );
    assert.deepEqual(device.groups.list, [{ label: 'North Depot' }]);

    const depot = await q(
      `query($id: ID!) { group(id: $id) { vehicles { list { id currentDevice { id } groups { list { label } } } } } }`,
      {
        id: F.groups.depot,
      },
    );
    const first = depot.data.group.vehicles.list.find((v: { id: string }) => v.id === F.vehicles.depot[0]);
    assert.deepEqual(first, {
      id: F.vehicles.depot[0],
      currentDevice: { id: F.depotDevices[0] },
      groups: { list: [{ label: 'North Depot' }] },
    });
  });

  test('a device seen by bob lists only vehicles bob may see', async () => {
    const res = await h.as(F.bob)(`query($d: ID!) { device(id: $d) { vehicles { list { id } } } }`, {
      d: F.depotDevices[0],
    });
    assert.deepEqual(res.data.device.vehicles.list, [{ id: F.vehicles.depot[0] }]);
  });
});

describe('paging', () => {
  // alice (a member of the top-level group) pages per row, bob (a sub-group) from his visible set.
  for (const [who, total] of [
    ['alice', 127],
    ['bob', 120],
  ] as const)
    test(`walking next visits every device ${who} sees exactly once, with count, and next is null on the last page`, async () => {
      const q = h.as(F[who]);
      const seen: string[] = [];
      let pageId: string | null = null;
      let pages = 0;
      do {
        const res: any = await q(
          `query($p: ID) { devices(pageSize: 25, pageId: $p) { count list { id } next } }`,
          { p: pageId },
        );
        assert.equal(res.errors, undefined);
        assert.equal(res.data.devices.count, total);
        assert.ok(res.data.devices.list.length <= 25);
        seen.push(...res.data.devices.list.map((d: { id: string }) => d.id));
        pageId = res.data.devices.next;
        pages += 1;
      } while (pageId);
      assert.equal(pages, Math.ceil(total / 25));
      assert.equal(seen.length, total);
      assert.deepEqual(seen, [...new Set(seen)].sort(), 'in id order, each once');
    });

  test('nested pages walk too, with their own cursor', async () => {
    const q = h.as(F.alice);
    const query = `query($id: ID!, $p: ID) { group(id: $id) { devices(pageSize: 50, pageId: $p) { list { id } next } } }`;
    const seen = new Set<string>();
    let pageId: string | null = null;
    do {
      const res: any = await q(query, { id: F.groups.depot, p: pageId });
      res.data.group.devices.list.forEach((d: { id: string }) => seen.add(d.id));
      pageId = res.data.group.devices.next;
    } while (pageId);
    assert.equal(seen.size, 120);
  });

  test('a tampered pageId, a pageId of other filters and a pageSize over the maximum are BAD_USER_INPUT', async () => {
    const q = h.as(F.alice);
    const first = await q('{ devices(pageSize: 10) { next } }');
    const next: string = first.data.devices.next;
    const tampered = `${next.slice(0, 5)}${next[5] === 'A' ? 'B' : 'A'}${next.slice(6)}`;
    for (const [query, variables] of [
      ['query($p: ID) { devices(pageId: $p) { next } }', { p: tampered }],
      ['query($p: ID) { devices(onboarded: true, pageId: $p) { next } }', { p: next }],
      ['{ devices(pageSize: 501) { next } }', {}],
      ['{ devices(pageSize: 0) { next } }', {}],
    ] as const) {
      const res = await q(query, variables);
      assert.equal(res.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT', query);
    }
  });
});

describe('batched loading', () => {
  test('devices { list { owner currentVehicle } } over 100 and 500 devices sends the same number of statements', async () => {
    const q = h.as(F.alice);
    const query = `query($n: Int) { devices(pageSize: $n) { list { id owner { fullName } currentVehicle { plate } product { name } groups { list { label } } } } }`;
    h.statements.reset();
    const small = await q(query, { n: 10 });
    const few = h.statements.count;
    h.statements.reset();
    const big = await q(query, { n: 120 });
    const many = h.statements.count;
    assert.equal(small.data.devices.list.length, 10);
    assert.equal(big.data.devices.list.length, 120);
    assert.equal(many, few, `statements grew with the page: ${few} -> ${many}`);
    assert.ok(many <= 6, `expected at most 6 statements, got ${many}`);
  });
});

/**
 * Every argument of fleet-core's core root queries (account, accounts, group, groups, device,
 * devices, driver, drivers) end to end: password grant at the real SSO -> gateway -> fleet-core ->
 * PostgreSQL, on the seeded demo data. Expected answers are computed independently with SQL from
 * the seeded rows: visibility is re-derived from group membership and the group_parents hierarchy
 * (a recursive walk, not fleet-core's closure table), so no id is hard-coded.
 *
 * Each filter is checked to select exactly the SQL expectation, and (where the data allows) that
 * the expectation is non-empty and a strict subset of the unfiltered list, so an ignored argument
 * fails the test.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Knex } from '@fleetgraph/db';
import { DEMO_EMAIL, DEMO_PASSWORD } from '@fleetgraph/seed';
import { fleetExpectations } from './fleet-expectations';
import { startStack, type Stack } from './stack';

/** Sees only the North region of Acme. */
const NORTH = 'dispatcher.north@acme.example';
/** Root account of the other organization. */
const GLOBEX = 'ops@globex.example';

let stack: Stack;
const tokens = new Map<string, string>();
before(async () => {
  stack = await startStack('e2e_arguments_core');
  for (const email of [DEMO_EMAIL, NORTH, GLOBEX]) tokens.set(email, await stack.login(email, DEMO_PASSWORD));
});
after(() => stack?.close());

const { gql, errorCodes, visibleTo } = fleetExpectations(() => ({ stack, tokens }));

const TABLES: Record<'accounts' | 'groups' | 'devices' | 'drivers', string> = {
  accounts: 'fleet.accounts as x',
  groups: 'fleet.groups as x',
  devices: 'fleet.devices as x',
  drivers: 'fleet.drivers as x',
};

/** Rows of a root list's table that `email` sees (alias `x`), to be narrowed by the caller. */
const visibleRows = (email: string, field: keyof typeof TABLES) =>
  stack.knex(TABLES[field]).where(visibleTo(email, field, 'x.id'));

const idsOf = async (query: Knex.QueryBuilder): Promise<string[]> =>
  ((await query.pluck('x.id')) as unknown[]).map(String).sort();

const sorted = (values: string[]) => [...values].sort();
const iso = (value: unknown) => new Date(value as string).toISOString();

// ------------------------------------------------------------------------------------------------
// Root lists through the gateway, one page holding every row.

const ARG_TYPES: Record<string, Record<string, string>> = {
  accounts: { ids: '[ID!]', email: 'String', fullName: 'String', shortName: 'String', phone: 'String' },
  groups: { ids: '[ID!]', labels: '[String!]', hierarchyLevels: '[GroupHierarchyLevel!]' },
  devices: {
    ids: '[ID]',
    onboarded: 'Boolean',
    statuses: '[DeviceStatus!]',
    deviceTypes: '[String]',
    hasWifi: 'Boolean',
    hasBluetooth: 'Boolean',
    productNames: '[String!]',
    productNetworks: '[ProductNetwork!]',
    productMarkets: '[ProductMarket!]',
  },
  drivers: {
    ids: '[ID!]',
    idKeys: '[ID!]',
    labels: '[String!]',
    auxiliaryDeviceSerialNumbers: '[String!]',
    auxiliaryDeviceMacAddressHashs: '[String!]',
    auxiliaryDeviceIdKeys: '[String!]',
    hasVehicle: 'Boolean',
    active: 'Boolean',
    sort: '[DriverSort!]',
  },
};
const MAX_PAGE: Record<string, number> = { accounts: 100, groups: 200, devices: 500, drivers: 500 };

/** The rows of `field(args)` as `email` gets them, in the returned order (one page, checked). */
async function rows(
  email: string,
  field: keyof typeof TABLES,
  args: Record<string, unknown> = {},
  selection = 'id',
): Promise<Array<Record<string, any>>> {
  const names = Object.keys(args);
  const declared = names.map((n) => `$${n}: ${ARG_TYPES[field]![n]}`).join(', ');
  const used = [...names.map((n) => `${n}: $${n}`), `pageSize: ${MAX_PAGE[field]}`].join(', ');
  const data = await gql(
    email,
    `query${declared ? `(${declared})` : ''} { ${field}(${used}) { count next list { ${selection} } } }`,
    args,
  );
  const page = data[field];
  assert.equal(page.next, null, `${field}: one page holds every row`);
  assert.equal(page.count, page.list.length, `${field}: count equals the rows listed`);
  return page.list;
}

/** The ids of `field(args)` as `email` gets them, sorted. */
const ids = async (email: string, field: keyof typeof TABLES, args: Record<string, unknown> = {}) =>
  sorted((await rows(email, field, args)).map((r) => String(r.id)));

/**
 * The argument selected exactly the expected rows, the expectation is not empty, and it is a strict
 * subset of `all` (the unfiltered visible list), so the test fails if the argument were ignored.
 */
function assertSelects(got: string[], expected: string[], all: string[], what: string) {
  assert.deepEqual(sorted(got), sorted(expected), what);
  assert.ok(expected.length > 0, `${what}: the seeded data gives no row to select`);
  assert.ok(expected.length < all.length, `${what}: selects every visible row (argument untested)`);
  for (const id of expected) assert.ok(all.includes(id), `${what}: ${id} is not in the unfiltered list`);
}

const demoOrg = async () =>
  String(
    (await stack.knex('fleet.accounts').where({ email: DEMO_EMAIL }).first('organization_id'))!
      .organization_id,
  );

// ================================================================================================

describe('account and accounts through the gateway', () => {
  test('account without id is the signed-in account, for each login', async () => {
    for (const email of [DEMO_EMAIL, NORTH, GLOBEX]) {
      const own = await stack.knex('fleet.accounts').where({ email }).first('id', 'full_name');
      const data = await gql(email, '{ account { id email fullName } }');
      assert.deepEqual(data.account, { id: own.id, email, fullName: own.full_name });
    }
  });

  test('account(id) returns a visible account and null for one outside the caller groups or organization', async () => {
    const visibleToNorth = await idsOf(visibleRows(NORTH, 'accounts'));
    const acme = await idsOf(stack.knex('fleet.accounts as x').where('x.organization_id', await demoOrg()));
    const hiddenFromNorth = acme.filter((id) => !visibleToNorth.includes(id));
    const otherOrg = await idsOf(
      stack.knex('fleet.accounts as x').whereNot('x.organization_id', await demoOrg()),
    );
    assert.ok(hiddenFromNorth.length > 0 && otherOrg.length > 0);
    const shownToNorth = visibleToNorth.find((id) => id !== visibleToNorth[0]) ?? visibleToNorth[0]!;
    const document = 'query($id: ID) { account(id: $id) { id } }';
    assert.deepEqual((await gql(NORTH, document, { id: shownToNorth })).account, { id: shownToNorth });
    assert.equal((await gql(NORTH, document, { id: hiddenFromNorth[0] })).account, null);
    assert.deepEqual((await gql(DEMO_EMAIL, document, { id: hiddenFromNorth[0] })).account, {
      id: hiddenFromNorth[0],
    });
    assert.equal((await gql(DEMO_EMAIL, document, { id: otherOrg[0] })).account, null);
    assert.equal((await gql(DEMO_EMAIL, document, { id: 'not-a-uuid' })).account, null);
  });

  test('accounts without filters lists exactly the visible accounts, ordered by email', async () => {
    for (const email of [DEMO_EMAIL, NORTH]) {
      const expected = (
        (await visibleRows(email, 'accounts').orderBy(['x.email', 'x.id']).pluck('x.email')) as string[]
      ).map(String);
      const got = (await rows(email, 'accounts', {}, 'email')).map((r) => r.email);
      assert.deepEqual(got, expected, email);
    }
    // The demo account sees its whole organization; the North dispatcher only a part of it.
    const org = await idsOf(stack.knex('fleet.accounts as x').where('x.organization_id', await demoOrg()));
    assert.deepEqual(await ids(DEMO_EMAIL, 'accounts'), org);
    assert.ok((await ids(NORTH, 'accounts')).length < org.length);
  });

  test('accounts(ids) returns exactly the visible accounts among the ids', async () => {
    const all = await ids(NORTH, 'accounts');
    const acme = await idsOf(stack.knex('fleet.accounts as x').where('x.organization_id', await demoOrg()));
    const other = await idsOf(
      stack.knex('fleet.accounts as x').whereNot('x.organization_id', await demoOrg()),
    );
    const asked = [all[0]!, all[all.length - 1]!, acme.find((id) => !all.includes(id))!, other[0]!];
    const expected = await idsOf(visibleRows(NORTH, 'accounts').whereIn('x.id', asked));
    assertSelects(await ids(NORTH, 'accounts', { ids: asked }), expected, all, 'accounts(ids)');
    assert.equal(expected.length, 2);
  });

  test('accounts(email) matches the whole address, case-insensitively', async () => {
    const all = await ids(DEMO_EMAIL, 'accounts');
    const target = await stack.knex('fleet.accounts').where({ email: NORTH }).first('email');
    const asked = String(target.email).toUpperCase();
    const expected = await idsOf(
      visibleRows(DEMO_EMAIL, 'accounts').whereRaw('lower(x.email) = lower(?)', [asked]),
    );
    assertSelects(await ids(DEMO_EMAIL, 'accounts', { email: asked }), expected, all, 'accounts(email)');
    // Exact, not a substring.
    const partial = String(target.email).split('@')[0]!;
    assert.deepEqual(await ids(DEMO_EMAIL, 'accounts', { email: partial }), []);
  });

  test('accounts(fullName) matches a case-insensitive substring among the visible accounts', async () => {
    for (const email of [DEMO_EMAIL, NORTH]) {
      const all = await ids(email, 'accounts');
      for (const fragment of ['BECK', 'klein']) {
        const expected = await idsOf(
          visibleRows(email, 'accounts').whereILike('x.full_name', `%${fragment}%`),
        );
        assertSelects(
          await ids(email, 'accounts', { fullName: fragment }),
          expected,
          all,
          `${email} accounts(fullName: ${fragment})`,
        );
      }
    }
    // Somebody the North dispatcher does not see is not found by name either.
    const hidden = await stack
      .knex('fleet.accounts as x')
      .where('x.organization_id', await demoOrg())
      .whereNot(visibleTo(NORTH, 'accounts', 'x.id'))
      .first('x.id', 'x.full_name');
    assert.ok(!(await ids(NORTH, 'accounts', { fullName: hidden.full_name })).includes(hidden.id));
  });

  test('accounts(shortName) matches a case-insensitive substring', async () => {
    const all = await ids(DEMO_EMAIL, 'accounts');
    const expected = await idsOf(visibleRows(DEMO_EMAIL, 'accounts').whereILike('x.short_name', '%JON%'));
    assertSelects(
      await ids(DEMO_EMAIL, 'accounts', { shortName: 'JON' }),
      expected,
      all,
      'accounts(shortName)',
    );
  });

  test('accounts(phone) matches the exact number', async () => {
    const all = await ids(DEMO_EMAIL, 'accounts');
    const { phone } = await stack.knex('fleet.accounts').where({ email: NORTH }).first('phone');
    const expected = await idsOf(visibleRows(DEMO_EMAIL, 'accounts').where('x.phone', phone));
    assertSelects(await ids(DEMO_EMAIL, 'accounts', { phone }), expected, all, 'accounts(phone)');
    assert.deepEqual(await ids(DEMO_EMAIL, 'accounts', { phone: String(phone).slice(0, -2) }), []);
  });

  test('accounts filters combine (fullName and shortName; ids and email)', async () => {
    const all = await ids(DEMO_EMAIL, 'accounts');
    const byName = await idsOf(visibleRows(DEMO_EMAIL, 'accounts').whereILike('x.full_name', '%becker%'));
    const both = await idsOf(
      visibleRows(DEMO_EMAIL, 'accounts')
        .whereILike('x.full_name', '%becker%')
        .whereILike('x.short_name', '%jonas%'),
    );
    assertSelects(
      await ids(DEMO_EMAIL, 'accounts', { fullName: 'becker', shortName: 'jonas' }),
      both,
      all,
      'accounts(fullName, shortName)',
    );
    assert.ok(both.length < byName.length, 'shortName narrows fullName');

    const north = await stack.knex('fleet.accounts').where({ email: NORTH }).first('id');
    const expected = await idsOf(
      visibleRows(DEMO_EMAIL, 'accounts')
        .whereIn('x.id', [north.id, all[0]!])
        .whereRaw('lower(x.email) = lower(?)', [NORTH]),
    );
    assert.deepEqual(expected, [north.id]);
    assert.deepEqual(await ids(DEMO_EMAIL, 'accounts', { ids: [north.id, all[0]], email: NORTH }), expected);
    const elsewhere = all.find((id) => id !== north.id)!;
    assert.deepEqual(await ids(DEMO_EMAIL, 'accounts', { ids: [elsewhere], email: NORTH }), []);
  });
});

// ================================================================================================

describe('group and groups through the gateway', () => {
  test('group(id) returns a visible group and null for one outside the caller reach', async () => {
    const north = await idsOf(visibleRows(NORTH, 'groups'));
    const acme = await idsOf(stack.knex('fleet.groups as x').where('x.organization_id', await demoOrg()));
    const hidden = acme.filter((id) => !north.includes(id));
    assert.ok(hidden.length > 0);
    const document = 'query($id: ID!) { group(id: $id) { id label hierarchyLevel } }';
    const row = await stack.knex('fleet.groups').where({ id: north[0] }).first('label', 'hierarchy_level');
    assert.deepEqual((await gql(NORTH, document, { id: north[0] })).group, {
      id: north[0],
      label: row.label,
      hierarchyLevel: row.hierarchy_level,
    });
    assert.equal((await gql(NORTH, document, { id: hidden[0] })).group, null);
    assert.equal((await gql(DEMO_EMAIL, document, { id: hidden[0] })).group.id, hidden[0]);
    assert.equal((await gql(GLOBEX, document, { id: hidden[0] })).group, null);
    assert.equal((await gql(DEMO_EMAIL, document, { id: 'not-a-uuid' })).group, null);
  });

  test('groups without filters lists exactly the visible groups, ordered by label', async () => {
    for (const email of [DEMO_EMAIL, NORTH, GLOBEX]) {
      const expected = (await visibleRows(email, 'groups').orderBy(['x.label', 'x.id']).pluck('x.id')).map(
        String,
      );
      assert.deepEqual(
        (await rows(email, 'groups')).map((r) => r.id),
        expected,
        email,
      );
    }
  });

  test('groups(ids) returns exactly the visible groups among the ids', async () => {
    const all = await ids(NORTH, 'groups');
    const hidden = await idsOf(stack.knex('fleet.groups as x').whereNot(visibleTo(NORTH, 'groups', 'x.id')));
    const asked = [all[0]!, all[1]!, hidden[0]!, hidden[hidden.length - 1]!];
    const expected = await idsOf(visibleRows(NORTH, 'groups').whereIn('x.id', asked));
    assertSelects(await ids(NORTH, 'groups', { ids: asked }), expected, all, 'groups(ids)');
  });

  test('groups(labels) returns the visible groups with exactly those labels', async () => {
    const all = await ids(DEMO_EMAIL, 'groups');
    const labels = (await stack
      .knex('fleet.groups')
      .distinct('label')
      .orderBy('label')
      .pluck('label')) as string[];
    // One label of each organization's hierarchy level REGION, one DEPOT, and a part of a label.
    const asked = [
      ...((await stack.knex('fleet.groups').where({ hierarchy_level: 'REGION' }).pluck('label')) as string[]),
      labels.find((l) => l.endsWith('Depot'))!,
      'Depot',
    ];
    const expected = await idsOf(visibleRows(DEMO_EMAIL, 'groups').whereIn('x.label', asked));
    assertSelects(await ids(DEMO_EMAIL, 'groups', { labels: asked }), expected, all, 'groups(labels)');
  });

  test('groups(hierarchyLevels) returns the visible groups of those levels', async () => {
    for (const email of [DEMO_EMAIL, NORTH]) {
      const all = await ids(email, 'groups');
      const levels = ['DEPOT', 'TEAM'];
      const expected = await idsOf(visibleRows(email, 'groups').whereIn('x.hierarchy_level', levels));
      assertSelects(
        await ids(email, 'groups', { hierarchyLevels: levels }),
        expected,
        all,
        `${email} groups(hierarchyLevels)`,
      );
    }
    const all = await ids(DEMO_EMAIL, 'groups');
    const unassigned = await idsOf(
      visibleRows(DEMO_EMAIL, 'groups').where('x.hierarchy_level', 'UNASSIGNED'),
    );
    assertSelects(
      await ids(DEMO_EMAIL, 'groups', { hierarchyLevels: ['UNASSIGNED'] }),
      unassigned,
      all,
      'groups(hierarchyLevels: [UNASSIGNED])',
    );
  });

  test('groups filters combine (labels and hierarchyLevels; ids and hierarchyLevels)', async () => {
    const all = await ids(DEMO_EMAIL, 'groups');
    const labelsOf = async (level: string) =>
      (await visibleRows(DEMO_EMAIL, 'groups')
        .where('x.hierarchy_level', level)
        .orderBy('x.label')
        .limit(2)
        .pluck('x.label')) as string[];
    const labels = [...(await labelsOf('REGION')), ...(await labelsOf('DEPOT'))];
    const expected = await idsOf(
      visibleRows(DEMO_EMAIL, 'groups').whereIn('x.label', labels).where('x.hierarchy_level', 'DEPOT'),
    );
    const byLabel = await idsOf(visibleRows(DEMO_EMAIL, 'groups').whereIn('x.label', labels));
    assertSelects(
      await ids(DEMO_EMAIL, 'groups', { labels, hierarchyLevels: ['DEPOT'] }),
      expected,
      all,
      'groups(labels, hierarchyLevels)',
    );
    assert.ok(expected.length < byLabel.length, 'hierarchyLevels narrows labels');

    const someIds = all.slice(0, Math.ceil(all.length / 2));
    const expectedIds = await idsOf(
      visibleRows(DEMO_EMAIL, 'groups')
        .whereIn('x.id', someIds)
        .whereIn('x.hierarchy_level', ['DEPOT', 'TEAM']),
    );
    assert.deepEqual(
      await ids(DEMO_EMAIL, 'groups', { ids: someIds, hierarchyLevels: ['DEPOT', 'TEAM'] }),
      expectedIds,
    );
    assert.ok(expectedIds.length > 0 && expectedIds.length < someIds.length);
  });
});

// ================================================================================================

describe('device and devices through the gateway', () => {
  /** Visible devices whose product matches `where` (alias pr). */
  const withProduct = (email: string, where: (q: Knex.QueryBuilder) => void) =>
    visibleRows(email, 'devices').whereIn('x.product_id', (q: Knex.QueryBuilder) => {
      q.select('pr.id').from('fleet.products as pr');
      where(q);
    });

  test('device(id) returns a visible device and null for one outside the caller reach', async () => {
    const north = await idsOf(visibleRows(NORTH, 'devices'));
    const hidden = await idsOf(
      stack
        .knex('fleet.devices as x')
        .where('x.organization_id', await demoOrg())
        .whereNot(visibleTo(NORTH, 'devices', 'x.id')),
    );
    assert.ok(north.length > 0 && hidden.length > 0);
    const document = 'query($id: ID!) { device(id: $id) { id status deviceType onboarded } }';
    const row = await stack.knex('fleet.devices').where({ id: north[0] }).first();
    assert.deepEqual((await gql(NORTH, document, { id: north[0] })).device, {
      id: north[0],
      status: row.status,
      deviceType: row.device_type,
      onboarded: row.onboarded,
    });
    assert.equal((await gql(NORTH, document, { id: hidden[0] })).device, null);
    assert.equal((await gql(DEMO_EMAIL, document, { id: hidden[0] })).device.id, hidden[0]);
    assert.equal((await gql(GLOBEX, document, { id: hidden[0] })).device, null);
    assert.equal((await gql(DEMO_EMAIL, document, { id: 'no-such-imei' })).device, null);
  });

  test('devices without filters lists exactly the visible devices, ordered by id', async () => {
    for (const email of [DEMO_EMAIL, NORTH, GLOBEX]) {
      const expected = (await visibleRows(email, 'devices').orderBy('x.id').pluck('x.id')).map(String);
      assert.deepEqual(
        (await rows(email, 'devices')).map((r) => r.id),
        expected,
        email,
      );
    }
    const org = await idsOf(stack.knex('fleet.devices as x').where('x.organization_id', await demoOrg()));
    assert.deepEqual(await ids(DEMO_EMAIL, 'devices'), org, 'the demo account sees every Acme device');
  });

  test('devices(ids) returns exactly the visible devices among the ids (null entries ignored)', async () => {
    const all = await ids(NORTH, 'devices');
    const hidden = await idsOf(
      stack.knex('fleet.devices as x').whereNot(visibleTo(NORTH, 'devices', 'x.id')),
    );
    const asked = [all[0]!, null, all[2]!, hidden[0]!];
    const expected = await idsOf(
      visibleRows(NORTH, 'devices').whereIn(
        'x.id',
        asked.filter((id): id is string => id !== null),
      ),
    );
    assertSelects(await ids(NORTH, 'devices', { ids: asked }), expected, all, 'devices(ids)');
    assert.equal(expected.length, 2);
  });

  test('devices(onboarded) returns exactly the visible devices onboarded (true) or not (false)', async () => {
    const all = await ids(DEMO_EMAIL, 'devices');
    for (const onboarded of [true, false]) {
      const expected = await idsOf(visibleRows(DEMO_EMAIL, 'devices').where('x.onboarded', onboarded));
      assertSelects(
        await ids(DEMO_EMAIL, 'devices', { onboarded }),
        expected,
        all,
        `devices(onboarded: ${onboarded})`,
      );
    }
  });

  test('devices(statuses) returns exactly the visible devices with those statuses', async () => {
    for (const email of [DEMO_EMAIL, NORTH]) {
      const all = await ids(email, 'devices');
      for (const statuses of [['SLEEPING', 'NEVER_CONNECTED'], ['CONNECTED']]) {
        const expected = await idsOf(visibleRows(email, 'devices').whereIn('x.status', statuses));
        assertSelects(
          await ids(email, 'devices', { statuses }),
          expected,
          all,
          `${email} devices(statuses: ${statuses})`,
        );
      }
    }
  });

  test('devices(deviceTypes) returns exactly the visible devices of those types', async () => {
    const all = await ids(DEMO_EMAIL, 'devices');
    const deviceTypes = ['HARDWIRED', 'ASSET_TRACKER'];
    const expected = await idsOf(visibleRows(DEMO_EMAIL, 'devices').whereIn('x.device_type', deviceTypes));
    assertSelects(await ids(DEMO_EMAIL, 'devices', { deviceTypes }), expected, all, 'devices(deviceTypes)');
    const one = await idsOf(visibleRows(DEMO_EMAIL, 'devices').where('x.device_type', 'OBD_DONGLE'));
    assertSelects(
      await ids(DEMO_EMAIL, 'devices', { deviceTypes: ['OBD_DONGLE', null] }),
      one,
      all,
      'devices(deviceTypes) with a null entry',
    );
  });

  test('devices(hasWifi) returns exactly the visible devices whose product has wifi (true) or not (false)', async () => {
    const all = await ids(DEMO_EMAIL, 'devices');
    for (const hasWifi of [true, false]) {
      const expected = await idsOf(withProduct(DEMO_EMAIL, (q) => q.where('pr.has_wifi', hasWifi)));
      assertSelects(
        await ids(DEMO_EMAIL, 'devices', { hasWifi }),
        expected,
        all,
        `devices(hasWifi: ${hasWifi})`,
      );
    }
  });

  test('devices(hasBluetooth) returns exactly the visible devices whose product has bluetooth (true) or not (false)', async () => {
    const all = await ids(DEMO_EMAIL, 'devices');
    for (const hasBluetooth of [true, false]) {
      const expected = await idsOf(withProduct(DEMO_EMAIL, (q) => q.where('pr.has_bluetooth', hasBluetooth)));
      assertSelects(
        await ids(DEMO_EMAIL, 'devices', { hasBluetooth }),
        expected,
        all,
        `devices(hasBluetooth: ${hasBluetooth})`,
      );
    }
  });

  test('devices(productNames) returns exactly the visible devices of those products', async () => {
    const all = await ids(DEMO_EMAIL, 'devices');
    const names = (await stack.knex('fleet.products').orderBy('name').pluck('name')) as string[];
    const productNames = [names[0]!, names[names.length - 1]!];
    const expected = await idsOf(withProduct(DEMO_EMAIL, (q) => q.whereIn('pr.name', productNames)));
    assertSelects(await ids(DEMO_EMAIL, 'devices', { productNames }), expected, all, 'devices(productNames)');
  });

  test('devices(productNetworks) returns exactly the visible devices of products on those networks', async () => {
    const all = await ids(DEMO_EMAIL, 'devices');
    const productNetworks = ['CELLULAR_4G', 'NB_IOT'];
    const expected = await idsOf(withProduct(DEMO_EMAIL, (q) => q.whereIn('pr.network', productNetworks)));
    assertSelects(
      await ids(DEMO_EMAIL, 'devices', { productNetworks }),
      expected,
      all,
      'devices(productNetworks)',
    );
  });

  test('devices(productMarkets) returns exactly the visible devices of products for those markets', async () => {
    const all = await ids(DEMO_EMAIL, 'devices');
    for (const productMarkets of [['GLOBAL'], ['EU', 'NA']]) {
      const expected = await idsOf(withProduct(DEMO_EMAIL, (q) => q.whereIn('pr.market', productMarkets)));
      assertSelects(
        await ids(DEMO_EMAIL, 'devices', { productMarkets }),
        expected,
        all,
        `devices(productMarkets: ${productMarkets})`,
      );
    }
  });

  test('devices filters combine (status, onboarded and product properties)', async () => {
    const all = await ids(DEMO_EMAIL, 'devices');
    const statuses = ['CONNECTED', 'SLEEPING'];
    const byStatus = await idsOf(visibleRows(DEMO_EMAIL, 'devices').whereIn('x.status', statuses));
    const combined = await idsOf(
      withProduct(DEMO_EMAIL, (q) => q.where('pr.has_bluetooth', true).whereIn('pr.network', ['CELLULAR_4G']))
        .whereIn('x.status', statuses)
        .where('x.onboarded', false)
        .whereIn('x.device_type', ['OBD_DONGLE']),
    );
    assertSelects(
      await ids(DEMO_EMAIL, 'devices', {
        statuses,
        onboarded: false,
        deviceTypes: ['OBD_DONGLE'],
        hasBluetooth: true,
        productNetworks: ['CELLULAR_4G'],
      }),
      combined,
      all,
      'devices(statuses, onboarded, deviceTypes, hasBluetooth, productNetworks)',
    );
    assert.ok(combined.length < byStatus.length, 'the other filters narrow statuses');

    const names = (await stack.knex('fleet.products').where({ has_wifi: false }).pluck('name')) as string[];
    const expected = await idsOf(
      withProduct(DEMO_EMAIL, (q) => q.whereIn('pr.name', names).where('pr.has_wifi', true)),
    );
    assert.deepEqual(expected, [], 'no product without wifi has wifi');
    assert.deepEqual(await ids(DEMO_EMAIL, 'devices', { productNames: names, hasWifi: true }), []);
    const market = await idsOf(
      withProduct(DEMO_EMAIL, (q) => q.whereIn('pr.market', ['EU']).whereIn('pr.name', names)).whereIn(
        'x.id',
        all.slice(0, 30),
      ),
    );
    assertSelects(
      await ids(DEMO_EMAIL, 'devices', {
        ids: all.slice(0, 30),
        productMarkets: ['EU'],
        productNames: names,
      }),
      market,
      all,
      'devices(ids, productMarkets, productNames)',
    );
  });
});

// ================================================================================================

describe('driver and drivers through the gateway', () => {
  const DRIVER_FIELDS = 'id label idKey createdAt updatedAt active';

  test('driver without id is the signed-in account own driver profile, or null without one', async () => {
    for (const email of [DEMO_EMAIL, NORTH, GLOBEX]) {
      const own = await stack
        .knex('fleet.drivers as x')
        .join('fleet.accounts as a', 'a.id', 'x.user_profile_id')
        .where('a.email', email)
        .where(visibleTo(email, 'drivers', 'x.id'))
        .orderBy(['x.created_at', 'x.id'])
        .first('x.id', 'x.label');
      const data = await gql(email, '{ driver { id label userProfile { email } } }');
      assert.deepEqual(
        data.driver,
        own ? { id: own.id, label: own.label, userProfile: { email } } : null,
        email,
      );
    }
    const withProfile = await stack.knex('fleet.drivers').whereNotNull('user_profile_id').count('* as n');
    assert.ok(Number(withProfile[0]!.n) > 0);
    assert.notEqual(
      (await gql(DEMO_EMAIL, '{ driver { id } }')).driver,
      null,
      'the demo account has a profile',
    );
  });

  test('driver(id) returns a visible driver and null for one outside the caller reach', async () => {
    const north = await idsOf(visibleRows(NORTH, 'drivers'));
    const hidden = await idsOf(
      stack
        .knex('fleet.drivers as x')
        .where('x.organization_id', await demoOrg())
        .whereNot(visibleTo(NORTH, 'drivers', 'x.id')),
    );
    assert.ok(north.length > 0 && hidden.length > 0);
    const document = `query($id: ID) { driver(id: $id) { ${DRIVER_FIELDS} } }`;
    const row = await stack.knex('fleet.drivers').where({ id: north[0] }).first();
    assert.deepEqual((await gql(NORTH, document, { id: north[0] })).driver, {
      id: row.id,
      label: row.label,
      idKey: row.id_key,
      createdAt: iso(row.created_at),
      updatedAt: iso(row.updated_at),
      active: row.active,
    });
    assert.equal((await gql(NORTH, document, { id: hidden[0] })).driver, null);
    assert.equal((await gql(DEMO_EMAIL, document, { id: hidden[0] })).driver.id, hidden[0]);
    assert.equal((await gql(GLOBEX, document, { id: hidden[0] })).driver, null);
    assert.equal((await gql(DEMO_EMAIL, document, { id: 'not-a-uuid' })).driver, null);
  });

  test('drivers without filters lists exactly the visible drivers, by label then id', async () => {
    for (const email of [DEMO_EMAIL, NORTH, GLOBEX]) {
      const expected = (await visibleRows(email, 'drivers').orderBy(['x.label', 'x.id']).pluck('x.id')).map(
        String,
      );
      assert.deepEqual(
        (await rows(email, 'drivers')).map((r) => r.id),
        expected,
        email,
      );
    }
  });

  test('drivers(ids) returns exactly the visible drivers among the ids', async () => {
    const all = await ids(NORTH, 'drivers');
    const hidden = await idsOf(
      stack.knex('fleet.drivers as x').whereNot(visibleTo(NORTH, 'drivers', 'x.id')),
    );
    const asked = [all[0]!, all[3]!, hidden[0]!, hidden[hidden.length - 1]!, 'not-a-uuid'];
    const expected = await idsOf(visibleRows(NORTH, 'drivers').whereIn('x.id', asked.slice(0, 4)));
    assertSelects(await ids(NORTH, 'drivers', { ids: asked }), expected, all, 'drivers(ids)');
    assert.equal(expected.length, 2);
  });

  test('drivers(idKeys) returns exactly the visible drivers with those identification keys', async () => {
    const all = await ids(DEMO_EMAIL, 'drivers');
    const keys = (await visibleRows(DEMO_EMAIL, 'drivers')
      .whereNotNull('x.id_key')
      .orderBy('x.id_key')
      .limit(3)
      .pluck('x.id_key')) as string[];
    const foreign = (await stack
      .knex('fleet.drivers as x')
      .whereNot(visibleTo(DEMO_EMAIL, 'drivers', 'x.id'))
      .whereNotNull('x.id_key')
      .first('x.id_key'))!.id_key as string;
    const idKeys = [...keys, foreign];
    const expected = await idsOf(visibleRows(DEMO_EMAIL, 'drivers').whereIn('x.id_key', idKeys));
    assertSelects(await ids(DEMO_EMAIL, 'drivers', { idKeys }), expected, all, 'drivers(idKeys)');
    assert.equal(expected.length, 3);
  });

  test('drivers(labels) returns exactly the visible drivers with those labels', async () => {
    const all = await ids(DEMO_EMAIL, 'drivers');
    // A label several visible drivers share, a single one, and one of another organization.
    const shared = await visibleRows(DEMO_EMAIL, 'drivers')
      .groupBy('x.label')
      .havingRaw('count(*) > 1')
      .orderBy('x.label')
      .first('x.label');
    const single = await visibleRows(DEMO_EMAIL, 'drivers')
      .groupBy('x.label')
      .havingRaw('count(*) = 1')
      .orderBy('x.label')
      .first('x.label');
    const foreign = await stack
      .knex('fleet.drivers as x')
      .whereNot(visibleTo(DEMO_EMAIL, 'drivers', 'x.id'))
      .first('x.label');
    const labels = [shared.label, single.label, foreign.label] as string[];
    const expected = await idsOf(visibleRows(DEMO_EMAIL, 'drivers').whereIn('x.label', labels));
    assertSelects(await ids(DEMO_EMAIL, 'drivers', { labels }), expected, all, 'drivers(labels)');
    assert.ok(expected.length >= 3);
  });

  /** Visible drivers owning an auxiliary device with `column` in `values`. */
  const withAuxiliary = (email: string, column: string, values: string[]) =>
    visibleRows(email, 'drivers').whereIn(
      'x.id',
      stack.knex('fleet.driver_auxiliary_devices').select('driver_id').whereIn(column, values),
    );

  /** Values of `column` of auxiliary devices: two of visible drivers, one of an invisible driver. */
  async function auxiliaryValues(email: string, column: string): Promise<string[]> {
    const base = () => stack.knex('fleet.driver_auxiliary_devices as aux').whereNotNull(`aux.${column}`);
    const visible = (await base()
      .where(visibleTo(email, 'drivers', 'aux.driver_id'))
      .orderBy(`aux.${column}`)
      .limit(2)
      .pluck(`aux.${column}`)) as string[];
    const hidden = (await base()
      .whereNot(visibleTo(email, 'drivers', 'aux.driver_id'))
      .orderBy(`aux.${column}`)
      .first(`aux.${column}`)) as Record<string, string> | undefined;
    assert.equal(visible.length, 2, `two ${column} values of visible drivers`);
    assert.ok(hidden, `a ${column} value of a driver ${email} does not see`);
    return [...visible, hidden[column]!];
  }

  for (const [argument, column] of [
    ['auxiliaryDeviceSerialNumbers', 'serial_number'],
    ['auxiliaryDeviceMacAddressHashs', 'mac_address_hash'],
    ['auxiliaryDeviceIdKeys', 'id_key'],
  ] as const) {
    test(`drivers(${argument}) returns exactly the visible drivers with such an auxiliary device`, async () => {
      for (const email of [DEMO_EMAIL, NORTH]) {
        const all = await ids(email, 'drivers');
        const values = await auxiliaryValues(email, column);
        const expected = await idsOf(withAuxiliary(email, column, values));
        assertSelects(
          await ids(email, 'drivers', { [argument]: values }),
          expected,
          all,
          `${email} ${argument}`,
        );
        assert.deepEqual(await ids(email, 'drivers', { [argument]: [values[2]] }), []);
      }
    });
  }

  test('drivers(hasVehicle) returns exactly the visible drivers with (true) or without (false) a current vehicle', async () => {
    const all = await ids(DEMO_EMAIL, 'drivers');
    const withVehicle = await idsOf(visibleRows(DEMO_EMAIL, 'drivers').whereNotNull('x.current_vehicle_id'));
    const without = await idsOf(visibleRows(DEMO_EMAIL, 'drivers').whereNull('x.current_vehicle_id'));
    assertSelects(
      await ids(DEMO_EMAIL, 'drivers', { hasVehicle: true }),
      withVehicle,
      all,
      'hasVehicle: true',
    );
    assertSelects(await ids(DEMO_EMAIL, 'drivers', { hasVehicle: false }), without, all, 'hasVehicle: false');
  });

  test('drivers(active) returns exactly the visible active (true) or inactive (false) drivers', async () => {
    const all = await ids(DEMO_EMAIL, 'drivers');
    const active = await idsOf(visibleRows(DEMO_EMAIL, 'drivers').where('x.active', true));
    const inactive = await idsOf(visibleRows(DEMO_EMAIL, 'drivers').where('x.active', false));
    assert.deepEqual(await ids(DEMO_EMAIL, 'drivers', { active: true }), active);
    assert.deepEqual(await ids(DEMO_EMAIL, 'drivers', { active: false }), inactive);
    assert.deepEqual(sorted([...active, ...inactive]), all);
    // At scale 1 the seed may have no inactive driver (only drivers without a vehicle can be
    // inactive): then `active: false` must answer nothing while the unfiltered list is not empty,
    // which an ignored argument would fail. With inactive drivers, both values select a strict subset.
    assert.ok(all.length > 0 && (inactive.length > 0 || active.length === all.length));
    if (inactive.length > 0)
      assertSelects(await ids(DEMO_EMAIL, 'drivers', { active: false }), inactive, all, 'active');
    // Combined with hasVehicle the argument still selects exactly the SQL answer.
    const idle = await idsOf(
      visibleRows(DEMO_EMAIL, 'drivers').where('x.active', true).whereNull('x.current_vehicle_id'),
    );
    assert.deepEqual(await ids(DEMO_EMAIL, 'drivers', { active: true, hasVehicle: false }), idle);
  });

  test('drivers filters combine (labels, idKeys, auxiliary devices, hasVehicle, active)', async () => {
    const all = await ids(DEMO_EMAIL, 'drivers');
    const noVehicle = (await visibleRows(DEMO_EMAIL, 'drivers')
      .whereNull('x.current_vehicle_id')
      .pluck('x.label')) as string[];
    const withVehicle = (await visibleRows(DEMO_EMAIL, 'drivers')
      .whereNotNull('x.current_vehicle_id')
      .orderBy('x.label')
      .limit(3)
      .pluck('x.label')) as string[];
    const labels = [...noVehicle, ...withVehicle];
    const byLabel = await idsOf(visibleRows(DEMO_EMAIL, 'drivers').whereIn('x.label', labels));
    const expected = await idsOf(
      visibleRows(DEMO_EMAIL, 'drivers')
        .whereIn('x.label', labels)
        .whereNull('x.current_vehicle_id')
        .where('x.active', true),
    );
    assertSelects(
      await ids(DEMO_EMAIL, 'drivers', { labels, hasVehicle: false, active: true }),
      expected,
      all,
      'drivers(labels, hasVehicle, active)',
    );
    assert.ok(expected.length < byLabel.length, 'hasVehicle narrows labels');

    const serials = (await stack
      .knex('fleet.driver_auxiliary_devices as aux')
      .whereNotNull('aux.serial_number')
      .where(visibleTo(DEMO_EMAIL, 'drivers', 'aux.driver_id'))
      .pluck('aux.serial_number')) as string[];
    const keys = (await visibleRows(DEMO_EMAIL, 'drivers')
      .whereNotNull('x.id_key')
      .orderBy('x.id_key')
      .limit(20)
      .pluck('x.id_key')) as string[];
    const both = await idsOf(
      withAuxiliary(DEMO_EMAIL, 'serial_number', serials)
        .whereIn('x.id_key', keys)
        .whereNotNull('x.current_vehicle_id'),
    );
    const bySerial = await idsOf(withAuxiliary(DEMO_EMAIL, 'serial_number', serials));
    assertSelects(
      await ids(DEMO_EMAIL, 'drivers', {
        auxiliaryDeviceSerialNumbers: serials,
        idKeys: keys,
        hasVehicle: true,
      }),
      both,
      all,
      'drivers(auxiliaryDeviceSerialNumbers, idKeys, hasVehicle)',
    );
    assert.ok(both.length < bySerial.length, 'idKeys narrows the serial numbers');
  });

  // -- sort ---------------------------------------------------------------------------------------

  type Sort = Array<{ field: 'LABEL' | 'ID_KEY' | 'CREATED_AT' | 'UPDATED_AT'; direction?: 'ASC' | 'DESC' }>;
  const SQL_KEY: Record<Sort[number]['field'], string> = {
    LABEL: 'x.label',
    ID_KEY: "coalesce(x.id_key, '')",
    CREATED_AT: 'x.created_at',
    UPDATED_AT: 'x.updated_at',
  };
  /** The sort keys of a driver as a comparable string (the id only breaks ties, its order is free). */
  const keyOf = (sort: Sort) => (d: Record<string, unknown>) =>
    sort
      .map(({ field }) =>
        field === 'LABEL'
          ? d.label
          : field === 'ID_KEY'
            ? (d.idKey ?? d.id_key ?? '')
            : iso(field === 'CREATED_AT' ? (d.createdAt ?? d.created_at) : (d.updatedAt ?? d.updated_at)),
      )
      .join(' | ');
  async function expectedOrder(email: string, sort: Sort): Promise<string[]> {
    const query = visibleRows(email, 'drivers').select(
      'x.id',
      'x.label',
      'x.id_key',
      'x.created_at',
      'x.updated_at',
    );
    for (const { field, direction } of sort)
      query.orderByRaw(`${SQL_KEY[field]} ${direction === 'DESC' ? 'desc' : 'asc'}`);
    return ((await query) as Array<Record<string, unknown>>).map(keyOf(sort));
  }

  const SORTS: Array<[string, Sort]> = [
    [
      'LABEL ascending, then CREATED_AT descending',
      [{ field: 'LABEL' }, { field: 'CREATED_AT', direction: 'DESC' }],
    ],
    [
      'ID_KEY descending (missing keys as empty), then LABEL ascending',
      [
        { field: 'ID_KEY', direction: 'DESC' },
        { field: 'LABEL', direction: 'ASC' },
      ],
    ],
    [
      'UPDATED_AT descending, then CREATED_AT ascending, then LABEL descending',
      [
        { field: 'UPDATED_AT', direction: 'DESC' },
        { field: 'CREATED_AT', direction: 'ASC' },
        { field: 'LABEL', direction: 'DESC' },
      ],
    ],
    [
      'CREATED_AT ascending, then ID_KEY ascending',
      [{ field: 'CREATED_AT', direction: 'ASC' }, { field: 'ID_KEY' }],
    ],
  ];
  for (const [name, sort] of SORTS) {
    test(`drivers(sort: ${name}) orders exactly the visible drivers that way`, async () => {
      const all = await ids(DEMO_EMAIL, 'drivers');
      const got = await rows(DEMO_EMAIL, 'drivers', { sort }, DRIVER_FIELDS);
      assert.deepEqual(sorted(got.map((d) => String(d.id))), all);
      assert.deepEqual(got.map(keyOf(sort)), await expectedOrder(DEMO_EMAIL, sort));
      // The order differs from the default one (by label), so the sort was not ignored.
      if (sort[0]!.field !== 'LABEL') {
        const byLabel = (await rows(DEMO_EMAIL, 'drivers')).map((d) => d.id);
        assert.notDeepEqual(
          got.map((d) => d.id),
          byLabel,
        );
      }
    });
  }

  test('drivers(sort) combines with filters and a default direction of ASC', async () => {
    const sort: Sort = [{ field: 'ID_KEY' }, { field: 'LABEL', direction: 'DESC' }];
    const expected = (
      (await visibleRows(NORTH, 'drivers')
        .whereNotNull('x.current_vehicle_id')
        .select('x.id', 'x.label', 'x.id_key')
        .orderByRaw(`coalesce(x.id_key, '') asc, x.label desc`)) as Array<Record<string, unknown>>
    ).map(keyOf(sort));
    const got = await rows(NORTH, 'drivers', { sort, hasVehicle: true }, DRIVER_FIELDS);
    assert.ok(expected.length > 0);
    assert.deepEqual(got.map(keyOf(sort)), expected);
  });

  test('walking next under a mixed-direction sort visits every visible driver once, in order', async () => {
    const sort: Sort = [
      { field: 'UPDATED_AT', direction: 'DESC' },
      { field: 'LABEL', direction: 'ASC' },
    ];
    const all = await ids(DEMO_EMAIL, 'drivers');
    const seen: Array<Record<string, unknown>> = [];
    let pageId: string | null = null;
    let pages = 0;
    do {
      const data = await gql(
        DEMO_EMAIL,
        `query($sort: [DriverSort!], $p: ID) { drivers(sort: $sort, pageSize: 5, pageId: $p) {
          count next list { ${DRIVER_FIELDS} } } }`,
        { sort, p: pageId },
      );
      assert.equal(data.drivers.count, all.length);
      assert.ok(data.drivers.list.length <= 5);
      seen.push(...data.drivers.list);
      pageId = data.drivers.next;
      pages += 1;
    } while (pageId && pages < 100);
    assert.equal(pages, Math.ceil(all.length / 5));
    const seenIds = seen.map((d) => String(d.id));
    assert.equal(new Set(seenIds).size, seenIds.length, 'no driver twice');
    assert.deepEqual(sorted(seenIds), all, 'every driver once');
    assert.deepEqual(seen.map(keyOf(sort)), await expectedOrder(DEMO_EMAIL, sort));
  });

  test('drivers refuses a bad sort and a pageId of another sort or filter with BAD_USER_INPUT', async () => {
    const document =
      'query($sort: [DriverSort!], $p: ID, $a: Boolean) { drivers(sort: $sort, pageId: $p, active: $a, pageSize: 5) { next } }';
    assert.deepEqual(
      await errorCodes(DEMO_EMAIL, document, {
        sort: [{ field: 'LABEL' }, { field: 'LABEL', direction: 'DESC' }],
      }),
      ['BAD_USER_INPUT'],
    );
    assert.deepEqual(
      await errorCodes(DEMO_EMAIL, document, {
        sort: ['LABEL', 'ID_KEY', 'CREATED_AT', 'UPDATED_AT', 'LABEL'].map((field) => ({ field })),
      }),
      ['BAD_USER_INPUT'],
    );
    const first = await gql(DEMO_EMAIL, document, { sort: [{ field: 'LABEL' }] });
    assert.ok(first.drivers.next);
    assert.deepEqual(
      await errorCodes(DEMO_EMAIL, document, { sort: [{ field: 'CREATED_AT' }], p: first.drivers.next }),
      ['BAD_USER_INPUT'],
    );
    assert.deepEqual(
      await errorCodes(DEMO_EMAIL, document, { sort: [{ field: 'LABEL' }], p: first.drivers.next, a: true }),
      ['BAD_USER_INPUT'],
    );
    // The same query continues.
    const second = await gql(DEMO_EMAIL, document, { sort: [{ field: 'LABEL' }], p: first.drivers.next });
    assert.ok('next' in second.drivers);
  });
});

// ================================================================================================

describe('wrong argument values through the gateway', () => {
  test('an unknown enum value, a wrong argument type or an unknown argument is GRAPHQL_VALIDATION_FAILED', async () => {
    for (const document of [
      '{ devices(statuses: [FLYING]) { count } }',
      '{ groups(hierarchyLevels: "DEPOT") { count } }',
      '{ drivers(sort: [{ field: AGE }]) { count } }',
      '{ devices(productMarkets: [MARS]) { count } }',
      '{ accounts(name: "x") { count } }',
      '{ drivers(hasVehicle: "yes") { count } }',
    ]) {
      assert.deepEqual(await errorCodes(DEMO_EMAIL, document), ['GRAPHQL_VALIDATION_FAILED'], document);
    }
  });

  test('a wrong value in a variable, or a pageSize over the maximum, is BAD_USER_INPUT', async () => {
    const cases: Array<[string, Record<string, unknown>]> = [
      ['query($s: [DeviceStatus!]) { devices(statuses: $s) { count } }', { s: ['FLYING'] }],
      ['query($n: [ProductNetwork!]) { devices(productNetworks: $n) { count } }', { n: ['CELLULAR_6G'] }],
      ['query($l: [GroupHierarchyLevel!]) { groups(hierarchyLevels: $l) { count } }', { l: ['PLANET'] }],
      ['query($o: Boolean) { devices(onboarded: $o) { count } }', { o: 'sometimes' }],
      ['query($i: [ID!]) { accounts(ids: $i) { count } }', { i: [null] }],
      ['{ accounts(pageSize: 101) { count } }', {}],
      ['{ drivers(pageSize: 0) { count } }', {}],
      ['{ groups(pageSize: 201) { count } }', {}],
      ['{ devices(pageSize: 501) { count } }', {}],
    ];
    for (const [document, variables] of cases) {
      assert.deepEqual(await errorCodes(DEMO_EMAIL, document, variables), ['BAD_USER_INPUT'], document);
    }
  });
});

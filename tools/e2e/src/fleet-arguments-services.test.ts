/**
 * Every argument of fleet-core's services root queries (alert feedbacks and templates, bookings,
 * campaigns, client identifications, descriptions, distributors, driver services, trip metadata,
 * log-fetch actions, LPA, metrics) end to end: password grant at the real SSO -> gateway ->
 * fleet-core -> PostgreSQL, on the seeded demo data. Expected answers are computed independently
 * with SQL from the seeded rows: organization scoping from the caller's account, device, vehicle,
 * driver, group and account visibility re-derived from group membership and the group_parents
 * hierarchy (a recursive walk, not fleet-core's closure table), so no id is hard-coded.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Knex } from '@fleetgraph/db';
import { DEMO_EMAIL, DEMO_PASSWORD } from '@fleetgraph/seed';
import { fleetExpectations, type Kind } from './fleet-expectations';
import { startStack, type Stack } from './stack';

/** Sees only the North region of Acme. */
const NORTH = 'dispatcher.north@acme.example';
/** Root account of the other organization. */
const GLOBEX = 'ops@globex.example';

let stack: Stack;
const tokens = new Map<string, string>();
before(async () => {
  stack = await startStack('e2e_arguments_services');
  for (const email of [DEMO_EMAIL, NORTH, GLOBEX]) tokens.set(email, await stack.login(email, DEMO_PASSWORD));
});
after(() => stack?.close());

type Row = Record<string, any>;

const { gql, errorCodes, visibleTo } = fleetExpectations(() => ({ stack, tokens }));

/** `<alias>.organization_id` is the organization of <email>. */
const ownOrganization = (email: string, alias = 'x'): Knex.Raw =>
  stack.knex.raw(`${alias}.organization_id = (select organization_id from fleet.accounts where email = ?)`, [
    email,
  ]);

const idsOf = async (query: Knex.QueryBuilder, column = 'x.id'): Promise<string[]> =>
  ((await query.pluck(column)) as unknown[]).map(String).sort();

const sorted = (values: string[]) => [...values].sort();
const iso = (value: unknown) => (value == null ? null : new Date(value as string).toISOString());

/**
 * The argument selected exactly the expected rows, the expectation is not empty, and it is a strict
 * subset of `all` (the unfiltered list), so the test fails if the argument were ignored.
 */
function assertSelects(got: string[], expected: string[], all: string[], what: string) {
  assert.deepEqual(sorted(got), sorted(expected), what);
  assert.ok(expected.length > 0, `${what}: the seeded data gives no row to select`);
  assert.ok(expected.length < all.length, `${what}: selects every row (argument untested)`);
  for (const id of expected) assert.ok(all.includes(id), `${what}: ${id} is not in the unfiltered list`);
}

// ------------------------------------------------------------------------------------------------
// Root lists through the gateway: walks `next` until null.

const ARG_TYPES: Record<string, Record<string, string>> = {
  alertFeedbacks: { alertIds: '[ID!]', language: 'LangArg', status: 'VehicleAlertFeedbackStatusArg' },
  alertTemplates: {},
  bookings: {},
  campaigns: { archived: 'Boolean' },
  clientIdentifications: {
    code: 'String',
    label: 'String',
    distributorId: 'ID',
    clientReference: 'ID',
    defaultAccountId: 'ID',
    usable: 'Boolean',
    revoked: 'Boolean',
  },
  distributors: { isActive: 'Boolean' },
  driverServices: { label: 'String' },
  logfetchActions: {},
  metrics: { ids: '[ID!]', names: '[String!]', nameContains: 'String', rawUnit: 'Boolean' },
};

/** Every row of `field(args)` for `email`, in the returned order, walking `next` page by page. */
async function walk(
  email: string,
  field: string,
  args: Record<string, unknown> = {},
  selection = 'id',
  pageSize = 100,
): Promise<Row[]> {
  const names = Object.keys(args);
  const declared = [...names.map((n) => `$${n}: ${ARG_TYPES[field]![n]}`), '$pageId: ID'].join(', ');
  const used = [...names.map((n) => `${n}: $${n}`), `pageSize: ${pageSize}`, 'pageId: $pageId'].join(', ');
  const document = `query(${declared}) { ${field}(${used}) { count next list { ${selection} } } }`;
  const seen: Row[] = [];
  let pageId: string | null = null;
  let count: number | null = null;
  let pages = 0;
  do {
    const page: any = (await gql(email, document, { ...args, pageId }))[field];
    if (count === null) count = page.count;
    assert.equal(page.count, count, `${field}: count is the same on every page`);
    assert.ok(page.list.length <= pageSize, `${field}: a page holds at most pageSize rows`);
    seen.push(...page.list);
    pageId = page.next;
    pages += 1;
  } while (pageId && pages < 200);
  assert.equal(pageId, null, `${field}: the walk ends`);
  assert.equal(seen.length, count, `${field}: count equals the rows walked`);
  if (selection.split(/\s+/).includes('id')) {
    assert.equal(new Set(seen.map((r) => r.id)).size, seen.length, `${field}: no row twice`);
  }
  return seen;
}

const ids = async (email: string, field: string, args: Record<string, unknown> = {}) =>
  sorted((await walk(email, field, args)).map((r) => String(r.id)));

// ================================================================================================

describe('alertFeedbacks through the gateway', () => {
  /** Feedbacks on alerts of devices `email` sees (alias x; the alert is va). */
  const visibleFeedbacks = (email: string) =>
    stack
      .knex('fleet.vehicle_alert_feedbacks as x')
      .join('fleet.vehicle_alerts as va', 'va.id', 'x.alert_id')
      .where(visibleTo(email, 'devices', 'va.device_id'));

  test('alertFeedbacks without filters lists exactly the feedbacks on visible devices alerts, newest first', async () => {
    for (const email of [DEMO_EMAIL, NORTH, GLOBEX]) {
      const expected = (
        (await visibleFeedbacks(email)
          .orderBy([
            { column: 'x.created_at', order: 'desc' },
            { column: 'x.id', order: 'desc' },
          ])
          .pluck('x.id')) as unknown[]
      ).map(String);
      const got = await walk(email, 'alertFeedbacks', {}, 'id', 7);
      assert.deepEqual(
        got.map((r) => r.id),
        expected,
        email,
      );
      assert.ok(expected.length > 0, email);
    }
    assert.ok((await ids(NORTH, 'alertFeedbacks')).length < (await ids(DEMO_EMAIL, 'alertFeedbacks')).length);
  });

  test('alertFeedbacks(alertIds) returns exactly the visible feedbacks on those alerts', async () => {
    const all = await ids(DEMO_EMAIL, 'alertFeedbacks');
    const visible = (await visibleFeedbacks(DEMO_EMAIL)
      .orderBy('x.alert_id')
      .limit(3)
      .pluck('x.alert_id')) as string[];
    const foreign = (await stack
      .knex('fleet.vehicle_alert_feedbacks as x')
      .join('fleet.vehicle_alerts as va', 'va.id', 'x.alert_id')
      .whereNot(visibleTo(DEMO_EMAIL, 'devices', 'va.device_id'))
      .first('x.alert_id'))!.alert_id as string;
    const withoutFeedback = (await stack
      .knex('fleet.vehicle_alerts as va')
      .where(visibleTo(DEMO_EMAIL, 'devices', 'va.device_id'))
      .whereNotExists(stack.knex('fleet.vehicle_alert_feedbacks as f').whereRaw('f.alert_id = va.id'))
      .first('va.id'))!.id as string;
    const alertIds = [...visible, foreign, withoutFeedback, 'not-a-uuid'];
    const expected = await idsOf(visibleFeedbacks(DEMO_EMAIL).whereIn('x.alert_id', alertIds.slice(0, 5)));
    assertSelects(
      await ids(DEMO_EMAIL, 'alertFeedbacks', { alertIds }),
      expected,
      all,
      'alertFeedbacks(alertIds)',
    );
    assert.equal(expected.length, 3);
  });

  test('alertFeedbacks(language) returns exactly the visible feedbacks written in that language', async () => {
    const languages = (await stack
      .knex('fleet.vehicle_alert_feedbacks')
      .distinct('language')
      .pluck('language')) as string[];
    assert.ok(languages.length >= 2, 'the seed has feedbacks in several languages');
    for (const email of [DEMO_EMAIL, GLOBEX]) {
      const all = await ids(email, 'alertFeedbacks');
      const union: string[] = [];
      for (const language of languages) {
        const expected = await idsOf(visibleFeedbacks(email).where('x.language', language));
        const got = await ids(email, 'alertFeedbacks', { language });
        assert.deepEqual(got, expected, `${email} language ${language}`);
        union.push(...expected);
        if (expected.length > 0 && expected.length < all.length)
          assertSelects(got, expected, all, 'language');
      }
      assert.deepEqual(sorted(union), all, `${email}: the languages partition the feedbacks`);
      // At least one language answers nothing while the unfiltered list is not empty: an ignored
      // argument would fail. (The seed writes each organization's feedbacks in one language.)
      assert.ok(all.length > 0);
    }
    const empty = await ids(DEMO_EMAIL, 'alertFeedbacks', { language: 'JA' });
    assert.deepEqual(empty, await idsOf(visibleFeedbacks(DEMO_EMAIL).where('x.language', 'JA')));
    assert.deepEqual(empty, []);
  });

  test('alertFeedbacks(status) returns exactly the visible feedbacks with that status', async () => {
    for (const email of [DEMO_EMAIL, NORTH]) {
      const all = await ids(email, 'alertFeedbacks');
      for (const status of ['CONFIRMED', 'FIXED']) {
        const expected = await idsOf(visibleFeedbacks(email).where('x.status', status));
        assertSelects(
          await ids(email, 'alertFeedbacks', { status }),
          expected,
          all,
          `${email} alertFeedbacks(status: ${status})`,
        );
      }
    }
  });

  test('alertFeedbacks filters combine (alertIds, language, status)', async () => {
    const all = await ids(DEMO_EMAIL, 'alertFeedbacks');
    const alertIds = (await visibleFeedbacks(DEMO_EMAIL).pluck('x.alert_id')) as string[];
    const { language } = await visibleFeedbacks(DEMO_EMAIL).first('x.language');
    const expected = await idsOf(
      visibleFeedbacks(DEMO_EMAIL)
        .whereIn('x.alert_id', alertIds)
        .where('x.language', language)
        .where('x.status', 'FALSE_POSITIVE'),
    );
    assertSelects(
      await ids(DEMO_EMAIL, 'alertFeedbacks', { alertIds, language, status: 'FALSE_POSITIVE' }),
      expected,
      all,
      'alertFeedbacks(alertIds, language, status)',
    );
    const confirmed = (await visibleFeedbacks(DEMO_EMAIL)
      .where('x.status', 'CONFIRMED')
      .pluck('x.alert_id')) as string[];
    assert.deepEqual(await ids(DEMO_EMAIL, 'alertFeedbacks', { alertIds: confirmed, status: 'FIXED' }), []);
  });
});

// ================================================================================================

describe('alert templates, bookings, campaigns through the gateway', () => {
  test('alertTemplate(id) returns a template of the caller organization and null otherwise', async () => {
    const own = await stack
      .knex('fleet.alert_templates as x')
      .where(ownOrganization(DEMO_EMAIL))
      .orderBy('x.id')
      .first();
    const foreign = await stack
      .knex('fleet.alert_templates as x')
      .whereNot(ownOrganization(DEMO_EMAIL))
      .first('x.id');
    const document =
      'query($id: ID!) { alertTemplate(id: $id) { id name version channelName locked contentType } }';
    assert.deepEqual((await gql(DEMO_EMAIL, document, { id: own.id })).alertTemplate, {
      id: own.id,
      name: own.name,
      version: own.version,
      channelName: own.channel_name,
      locked: own.locked,
      contentType: own.content_type,
    });
    assert.equal((await gql(DEMO_EMAIL, document, { id: foreign.id })).alertTemplate, null);
    assert.equal((await gql(GLOBEX, document, { id: foreign.id })).alertTemplate.id, foreign.id);
    assert.equal((await gql(DEMO_EMAIL, document, { id: 'not-a-uuid' })).alertTemplate, null);
  });

  test('alertTemplates pages through exactly the caller organization templates by name', async () => {
    for (const email of [DEMO_EMAIL, GLOBEX]) {
      const expected = (
        (await stack
          .knex('fleet.alert_templates as x')
          .where(ownOrganization(email))
          .orderBy(['x.name', 'x.id'])
          .pluck('x.id')) as unknown[]
      ).map(String);
      assert.ok(expected.length > 4, 'several pages of 4');
      const got = await walk(email, 'alertTemplates', {}, 'id', 4);
      assert.deepEqual(
        got.map((r) => r.id),
        expected,
        email,
      );
      const onePage = await walk(email, 'alertTemplates', {}, 'id', 100);
      assert.deepEqual(
        onePage.map((r) => r.id),
        expected,
      );
    }
  });

  /** Bookings `email` sees: of its organization, its own or for a vehicle it sees (alias x). */
  const visibleBookings = (email: string) =>
    stack
      .knex('fleet.bookings as x')
      .where(ownOrganization(email))
      .where((q) =>
        q
          .where('x.account_id', stack.knex('fleet.accounts').select('id').where({ email }))
          .orWhere(visibleTo(email, 'vehicles', 'x.vehicle_id')),
      );

  test('booking(id) returns a visible booking and null for one the caller may not see', async () => {
    const shown = await visibleBookings(NORTH).orderBy('x.id').first();
    const hidden = await stack
      .knex('fleet.bookings as x')
      .whereNotIn('x.id', visibleBookings(NORTH).select('x.id'))
      .where(ownOrganization(NORTH))
      .first('x.id');
    const foreign = await stack
      .knex('fleet.bookings as x')
      .whereNot(ownOrganization(DEMO_EMAIL))
      .first('x.id');
    assert.ok(shown && hidden && foreign);
    const document = 'query($id: ID!) { booking(id: $id) { id plateNumber status bookingDate vin } }';
    assert.deepEqual((await gql(NORTH, document, { id: shown.id })).booking, {
      id: shown.id,
      plateNumber: shown.plate_number,
      status: shown.status,
      bookingDate: iso(shown.booking_date),
      vin: shown.vin,
    });
    assert.equal((await gql(NORTH, document, { id: hidden.id })).booking, null);
    assert.equal((await gql(DEMO_EMAIL, document, { id: hidden.id })).booking.id, hidden.id);
    assert.equal((await gql(DEMO_EMAIL, document, { id: foreign.id })).booking, null);
  });

  test('bookings pages through exactly the visible bookings, latest appointment first', async () => {
    for (const email of [DEMO_EMAIL, NORTH, GLOBEX]) {
      const expected = (
        (await visibleBookings(email)
          .orderBy([
            { column: 'x.booking_date', order: 'desc' },
            { column: 'x.id', order: 'desc' },
          ])
          .pluck('x.id')) as unknown[]
      ).map(String);
      assert.ok(expected.length > 0, email);
      const got = await walk(email, 'bookings', {}, 'id', 3);
      assert.deepEqual(
        got.map((r) => r.id),
        expected,
        email,
      );
    }
    assert.ok((await ids(NORTH, 'bookings')).length < (await ids(DEMO_EMAIL, 'bookings')).length);
  });

  test('campaign(id) returns a campaign of the caller organization (archived or not) and null otherwise', async () => {
    const own = (await stack
      .knex('fleet.campaigns as x')
      .where(ownOrganization(DEMO_EMAIL))
      .orderBy('x.id')) as Row[];
    assert.ok(own.some((c) => c.archived_at) && own.some((c) => !c.archived_at));
    const foreign = await stack
      .knex('fleet.campaigns as x')
      .whereNot(ownOrganization(DEMO_EMAIL))
      .first('x.id');
    const document = 'query($id: ID!) { campaign(id: $id) { id name status archivedAt createdAt } }';
    for (const c of own) {
      assert.deepEqual((await gql(DEMO_EMAIL, document, { id: c.id })).campaign, {
        id: c.id,
        name: c.name,
        status: c.status,
        archivedAt: iso(c.archived_at),
        createdAt: iso(c.created_at),
      });
    }
    assert.equal((await gql(DEMO_EMAIL, document, { id: foreign.id })).campaign, null);
  });

  test('campaigns(archived) lists archived campaigns too when true, and only the others when false or omitted', async () => {
    const own = () => stack.knex('fleet.campaigns as x').where(ownOrganization(DEMO_EMAIL));
    const all = await ids(DEMO_EMAIL, 'campaigns', { archived: true });
    assert.deepEqual(all, await idsOf(own()));
    const current = await idsOf(own().whereNull('x.archived_at'));
    assertSelects(
      await ids(DEMO_EMAIL, 'campaigns', { archived: false }),
      current,
      all,
      'campaigns(archived: false)',
    );
    assert.deepEqual(await ids(DEMO_EMAIL, 'campaigns'), current, 'omitted is not archived only');
    const ordered = (await own()
      .orderBy([
        { column: 'x.created_at', order: 'desc' },
        { column: 'x.id', order: 'desc' },
      ])
      .pluck('x.id')) as string[];
    assert.deepEqual(
      (await walk(DEMO_EMAIL, 'campaigns', { archived: true }, 'id', 2)).map((r) => r.id),
      ordered,
      'newest first',
    );
  });
});

// ================================================================================================

describe('clientIdentifications through the gateway', () => {
  const own = (email = DEMO_EMAIL) =>
    stack.knex('fleet.client_identifications as x').where(ownOrganization(email));

  test('clientIdentifications without filters lists exactly the caller organization codes, by code', async () => {
    for (const email of [DEMO_EMAIL, GLOBEX]) {
      const expected = ((await own(email).orderBy(['x.code', 'x.id']).pluck('x.id')) as unknown[]).map(
        String,
      );
      assert.ok(expected.length > 1);
      assert.deepEqual(
        (await walk(email, 'clientIdentifications', {}, 'id', 2)).map((r) => r.id),
        expected,
      );
    }
  });

  /** A value of `column` that some but not all of the demo organization's rows have. */
  async function selectiveValue(column: string): Promise<string> {
    const row = await own()
      .whereNotNull(`x.${column}`)
      .groupBy(`x.${column}`)
      .havingRaw(
        'count(*) < (select count(*) from fleet.client_identifications c where c.organization_id = (select organization_id from fleet.accounts where email = ?))',
        [DEMO_EMAIL],
      )
      .orderBy(`x.${column}`)
      .first(`x.${column} as value`);
    assert.ok(row, `a selective ${column}`);
    return String(row.value);
  }

  for (const [argument, column] of [
    ['code', 'code'],
    ['distributorId', 'distributor_id'],
    ['clientReference', 'client_reference'],
    ['defaultAccountId', 'default_account_id'],
  ] as const) {
    test(`clientIdentifications(${argument}) returns exactly the codes with that ${argument}`, async () => {
      const all = await ids(DEMO_EMAIL, 'clientIdentifications');
      const value = await selectiveValue(column);
      const expected = await idsOf(own().where(`x.${column}`, value));
      assertSelects(
        await ids(DEMO_EMAIL, 'clientIdentifications', { [argument]: value }),
        expected,
        all,
        `clientIdentifications(${argument})`,
      );
      // A value of the other organization finds nothing here.
      const foreign = await stack
        .knex('fleet.client_identifications as x')
        .whereNot(ownOrganization(DEMO_EMAIL))
        .whereNotNull(`x.${column}`)
        .first(`x.${column} as value`);
      assert.deepEqual(
        await ids(DEMO_EMAIL, 'clientIdentifications', { [argument]: String(foreign.value) }),
        [],
      );
    });
  }

  test('clientIdentifications(label) matches a case-insensitive substring', async () => {
    const all = await ids(DEMO_EMAIL, 'clientIdentifications');
    const { label } = await own().orderBy('x.code').first('x.label');
    const fragment = String(label).split(' ').pop()!.toUpperCase();
    const expected = await idsOf(own().whereILike('x.label', `%${fragment}%`));
    assertSelects(
      await ids(DEMO_EMAIL, 'clientIdentifications', { label: fragment }),
      expected,
      all,
      'clientIdentifications(label)',
    );
    assert.deepEqual(await ids(DEMO_EMAIL, 'clientIdentifications', { label: '%' }), []);
  });

  for (const [argument, column] of [
    ['usable', 'usable'],
    ['revoked', 'revoked'],
  ] as const) {
    test(`clientIdentifications(${argument}) returns exactly the codes that are (true) or are not (false) ${argument}`, async () => {
      const all = await ids(DEMO_EMAIL, 'clientIdentifications');
      for (const value of [true, false]) {
        const expected = await idsOf(own().where(`x.${column}`, value));
        assertSelects(
          await ids(DEMO_EMAIL, 'clientIdentifications', { [argument]: value }),
          expected,
          all,
          `clientIdentifications(${argument}: ${value})`,
        );
      }
    });
  }

  test('clientIdentifications filters combine (label, usable, revoked, code, distributorId)', async () => {
    const all = await ids(DEMO_EMAIL, 'clientIdentifications');
    const { label } = await own().first('x.label');
    const fragment = String(label).split(' ')[0]!.toLowerCase();
    const byLabel = await idsOf(own().whereILike('x.label', `%${fragment}%`));
    const expected = await idsOf(
      own().whereILike('x.label', `%${fragment}%`).where('x.usable', true).where('x.revoked', false),
    );
    assertSelects(
      await ids(DEMO_EMAIL, 'clientIdentifications', { label: fragment, usable: true, revoked: false }),
      expected,
      all,
      'clientIdentifications(label, usable, revoked)',
    );
    assert.ok(expected.length < byLabel.length, 'usable and revoked narrow label');

    const row = await own().whereNotNull('x.distributor_id').first('x.code', 'x.distributor_id', 'x.revoked');
    assert.deepEqual(
      await ids(DEMO_EMAIL, 'clientIdentifications', { code: row.code, distributorId: row.distributor_id }),
      await idsOf(own().where({ 'x.code': row.code, 'x.distributor_id': row.distributor_id })),
    );
    assert.deepEqual(
      await ids(DEMO_EMAIL, 'clientIdentifications', { code: row.code, revoked: !row.revoked }),
      [],
    );
  });
});

// ================================================================================================

describe('description through the gateway', () => {
  /** The SQL visibility kind of each description subject. */
  const KIND: Record<string, Kind> = {
    ACCOUNT: 'accounts',
    GROUP: 'groups',
    DEVICE: 'devices',
    VEHICLE: 'vehicles',
    DRIVER: 'drivers',
  };
  const document = `query($s: DescriptionSubject!, $id: ID!) { description(subject: $s, id: $id) {
    id label value source createdAt updatedAt } }`;
  const answer = (row: Row) => ({
    id: row.id,
    label: row.label,
    value: row.value,
    source: row.source,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  });

  test('description(subject, id) answers every subject with seeded data, and null under another subject', async () => {
    const members = (
      await gql(DEMO_EMAIL, '{ __type(name: "DescriptionSubject") { enumValues { name } } }')
    ).__type.enumValues.map((v: { name: string }) => v.name) as string[];
    assert.deepEqual(sorted(members), sorted(Object.keys(KIND)), 'the subjects this test knows');
    const tested: string[] = [];
    for (const subject of members) {
      const row = await stack
        .knex('fleet.descriptions as x')
        .where('x.subject', subject)
        .where(visibleTo(DEMO_EMAIL, KIND[subject]!, 'x.subject_id'))
        .orderBy('x.id')
        .first();
      if (!row) continue;
      tested.push(subject);
      assert.deepEqual(
        (await gql(DEMO_EMAIL, document, { s: subject, id: row.id })).description,
        answer(row),
        subject,
      );
      for (const other of members.filter((m) => m !== subject)) {
        assert.equal(
          (await gql(DEMO_EMAIL, document, { s: other, id: row.id })).description,
          null,
          `${subject} as ${other}`,
        );
      }
    }
    const withData = (await stack
      .knex('fleet.descriptions')
      .distinct('subject')
      .pluck('subject')) as string[];
    assert.deepEqual(sorted(tested), sorted(withData), 'every subject with data was tested');
    assert.ok(tested.length >= 4, `subjects with data: ${tested}`);
  });

  test('description(subject, id) is null when the subject is not visible to the caller', async () => {
    let checked = 0;
    for (const [subject, kind] of Object.entries(KIND)) {
      // Acme descriptions whose subject the North dispatcher does not see (the demo account does).
      const hidden = await stack
        .knex('fleet.descriptions as x')
        .where('x.subject', subject)
        .where(visibleTo(DEMO_EMAIL, kind, 'x.subject_id'))
        .whereNot(visibleTo(NORTH, kind, 'x.subject_id'))
        .orderBy('x.id')
        .first();
      const shown = await stack
        .knex('fleet.descriptions as x')
        .where('x.subject', subject)
        .where(visibleTo(NORTH, kind, 'x.subject_id'))
        .orderBy('x.id')
        .first();
      if (hidden) {
        assert.equal((await gql(NORTH, document, { s: subject, id: hidden.id })).description, null, subject);
        assert.equal((await gql(GLOBEX, document, { s: subject, id: hidden.id })).description, null, subject);
        checked += 1;
      }
      if (shown) {
        assert.deepEqual(
          (await gql(NORTH, document, { s: subject, id: shown.id })).description,
          answer(shown),
        );
        checked += 1;
      }
    }
    assert.ok(checked >= 6, `${checked} cases`);
    assert.equal((await gql(DEMO_EMAIL, document, { s: 'DEVICE', id: 'not-a-uuid' })).description, null);
  });
});

// ================================================================================================

describe('distributors and driver services through the gateway', () => {
  test('distributor(id) returns a distributor of the caller organization and null otherwise', async () => {
    const own = (await stack
      .knex('fleet.onboarding_distributors as x')
      .where(ownOrganization(DEMO_EMAIL))
      .orderBy('x.id')) as Row[];
    const foreign = await stack
      .knex('fleet.onboarding_distributors as x')
      .whereNot(ownOrganization(DEMO_EMAIL))
      .first('x.id');
    const document = 'query($id: ID!) { distributor(id: $id) { id label isActive organizationId } }';
    for (const d of own) {
      assert.deepEqual((await gql(DEMO_EMAIL, document, { id: d.id })).distributor, {
        id: d.id,
        label: d.label,
        isActive: d.is_active,
        organizationId: d.organization_id,
      });
    }
    assert.equal((await gql(DEMO_EMAIL, document, { id: foreign.id })).distributor, null);
    assert.equal((await gql(GLOBEX, document, { id: foreign.id })).distributor.id, foreign.id);
  });

  test('distributors(isActive) returns exactly the active (true) or inactive (false) distributors of the organization', async () => {
    const own = () => stack.knex('fleet.onboarding_distributors as x').where(ownOrganization(DEMO_EMAIL));
    const all = await ids(DEMO_EMAIL, 'distributors');
    assert.deepEqual(all, await idsOf(own()));
    assert.deepEqual(
      (await walk(DEMO_EMAIL, 'distributors', {}, 'id', 2)).map((r) => r.id),
      ((await own().orderBy(['x.label', 'x.id']).pluck('x.id')) as unknown[]).map(String),
      'by label',
    );
    for (const isActive of [true, false]) {
      const expected = await idsOf(own().where('x.is_active', isActive));
      assertSelects(
        await ids(DEMO_EMAIL, 'distributors', { isActive }),
        expected,
        all,
        `distributors(isActive: ${isActive})`,
      );
    }
  });

  test('driverService(id) returns a driver service of the caller organization and null otherwise', async () => {
    const own = await stack
      .knex('fleet.driver_services as x')
      .where(ownOrganization(DEMO_EMAIL))
      .orderBy('x.id')
      .first();
    const foreign = await stack
      .knex('fleet.driver_services as x')
      .whereNot(ownOrganization(DEMO_EMAIL))
      .first('x.id');
    const document = 'query($id: ID!) { driverService(id: $id) { id label description } }';
    assert.deepEqual((await gql(DEMO_EMAIL, document, { id: own.id })).driverService, {
      id: own.id,
      label: own.label,
      description: own.description,
    });
    assert.equal((await gql(DEMO_EMAIL, document, { id: foreign.id })).driverService, null);
    assert.equal((await gql(GLOBEX, document, { id: foreign.id })).driverService.id, foreign.id);
  });

  test('driverServices(label) returns exactly the organization services whose label contains it, any case', async () => {
    const own = () => stack.knex('fleet.driver_services as x').where(ownOrganization(DEMO_EMAIL));
    const all = await ids(DEMO_EMAIL, 'driverServices');
    assert.deepEqual(
      (await walk(DEMO_EMAIL, 'driverServices', {}, 'id', 2)).map((r) => r.id),
      ((await own().orderBy(['x.label', 'x.id']).pluck('x.id')) as unknown[]).map(String),
      'by label',
    );
    for (const label of ['INSPECTION', 'oil']) {
      const expected = await idsOf(own().whereILike('x.label', `%${label}%`));
      assertSelects(
        await ids(DEMO_EMAIL, 'driverServices', { label }),
        expected,
        all,
        `driverServices(label: ${label})`,
      );
    }
    assert.deepEqual(await ids(DEMO_EMAIL, 'driverServices', { label: '_' }), []);
  });
});

// ================================================================================================

describe('getMetadatum, logfetchActions, lpa, metrics through the gateway', () => {
  /** Trip metadata whose trip `email` sees through its device, vehicle or driver (alias x). */
  const visibleMetadata = (email: string) =>
    stack
      .knex('fleet.trip_metadata as x')
      .join('fleet.trips as t', 't.id', 'x.trip_id')
      .where((q) =>
        q
          .where(visibleTo(email, 'devices', 't.device_id'))
          .orWhere(visibleTo(email, 'vehicles', 't.vehicle_id'))
          .orWhere(visibleTo(email, 'drivers', 't.driver_id')),
      );

  test('getMetadatum(id) returns a metadatum of a visible trip and null for one of a trip the caller may not see', async () => {
    const document = 'query($id: ID!) { getMetadatum(id: $id) { id key value tripId createdAt updatedAt } }';
    const shown = await visibleMetadata(NORTH).orderBy('x.id').first('x.*');
    const hidden = await visibleMetadata(DEMO_EMAIL)
      .whereNotIn('x.id', visibleMetadata(NORTH).select('x.id'))
      .orderBy('x.id')
      .first('x.*');
    assert.ok(shown && hidden);
    assert.deepEqual((await gql(NORTH, document, { id: shown.id })).getMetadatum, {
      id: shown.id,
      key: shown.key,
      value: shown.value,
      tripId: shown.trip_id,
      createdAt: iso(shown.created_at),
      updatedAt: iso(shown.updated_at),
    });
    assert.equal((await gql(NORTH, document, { id: hidden.id })).getMetadatum, null);
    assert.equal((await gql(DEMO_EMAIL, document, { id: hidden.id })).getMetadatum.id, hidden.id);
    assert.equal((await gql(GLOBEX, document, { id: hidden.id })).getMetadatum, null);
    assert.equal((await gql(DEMO_EMAIL, document, { id: 'not-a-uuid' })).getMetadatum, null);
  });

  test('logfetchActions pages through the whole catalog in catalog order', async () => {
    const expected = ((await stack.knex('fleet.logfetch_actions').orderBy(['position', 'id'])) as Row[]).map(
      (a) => ({
        id: a.id,
        name: a.name,
        description: a.description,
        defaultDurationMinutes: a.default_duration_minutes,
      }),
    );
    assert.ok(expected.length > 2);
    for (const email of [DEMO_EMAIL, GLOBEX]) {
      const got = await walk(email, 'logfetchActions', {}, 'id name description defaultDurationMinutes', 2);
      assert.deepEqual(got, expected);
    }
  });

  // -- lpa ----------------------------------------------------------------------------------------

  const LPA = `query($imei: ID!, $f: FunctionNameType!, $p: ParametersType!) { lpa(imei: $imei, functionName: $f, parameters: $p) {
    id imei functionName status parameters { iccid activationCode smdpAddress matchingId nickname hasConfirmationCode } } }`;
  const PARAMETER_COLUMNS: Record<string, string> = {
    iccid: 'iccid',
    activationCode: 'activation_code',
    smdpAddress: 'smdp_address',
    matchingId: 'matching_id',
    nickname: 'nickname',
  };

  /** The latest recorded operation matching the arguments, from SQL; null when the device is not visible. */
  async function expectedLpa(
    email: string,
    imei: string,
    functionName: string,
    parameters: Record<string, string>,
  ) {
    const device = await stack
      .knex('fleet.devices as x')
      .where('x.id', imei)
      .where(visibleTo(email, 'devices', 'x.id'))
      .first('x.id');
    if (!device) return null;
    const query = stack.knex('fleet.lpa_operations').where({ device_id: imei, function_name: functionName });
    for (const [name, value] of Object.entries(parameters)) query.where(PARAMETER_COLUMNS[name]!, value);
    const row = await query
      .orderBy([
        { column: 'requested_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .first();
    if (!row) return { id: null, imei, functionName, status: 'NOT_REQUESTED' };
    return {
      id: row.id,
      imei,
      functionName,
      status: row.status,
      parameters: {
        iccid: row.iccid,
        activationCode: row.activation_code,
        smdpAddress: row.smdp_address,
        matchingId: row.matching_id,
        nickname: row.nickname,
        hasConfirmationCode: row.has_confirmation_code,
      },
    };
  }

  async function assertLpa(email: string, imei: string, f: string, p: Record<string, string>, what: string) {
    const expected = await expectedLpa(email, imei, f, p);
    const got = (await gql(email, LPA, { imei, f, p })).lpa;
    if (expected === null) assert.equal(got, null, what);
    else if (expected.id === null) {
      assert.deepEqual(
        { id: got.id, imei: got.imei, functionName: got.functionName, status: got.status },
        expected,
        what,
      );
    } else assert.deepEqual(got, expected, what);
    return expected;
  }

  /** Recorded operations on devices `email` sees. */
  const recorded = async (email = DEMO_EMAIL) =>
    (await stack
      .knex('fleet.lpa_operations as x')
      .where(visibleTo(email, 'devices', 'x.device_id'))
      .orderBy('x.id')) as Row[];

  /** The parameters recorded with an operation (the non-null ones). */
  const parametersOf = (op: Row): Record<string, string> =>
    Object.fromEntries(
      Object.entries(PARAMETER_COLUMNS)
        .filter(([, column]) => op[column] != null)
        .map(([name, column]) => [name, String(op[column])]),
    );

  /** Two visible operations downloading by activation code (different devices and codes). */
  async function twoActivations(): Promise<[Row, Row]> {
    const ops = (await recorded()).filter((op) => op.activation_code && op.iccid);
    const b = ops.find(
      (op) => op.device_id !== ops[0]?.device_id && op.activation_code !== ops[0]?.activation_code,
    );
    assert.ok(ops[0] && b, 'two recorded activation-code downloads on visible devices');
    return [ops[0], b];
  }

  test('lpa(imei, functionName, parameters) returns the recorded operation when all three match', async () => {
    const operations = await recorded();
    assert.ok(operations.length >= 2, 'recorded operations on visible devices');
    for (const op of operations) {
      const expected = await assertLpa(DEMO_EMAIL, op.device_id, op.function_name, parametersOf(op), op.id);
      assert.notEqual(expected?.id ?? null, null, `${op.id} is found by its own parameters`);
    }
  });

  test('lpa(parameters) only matches an operation with those parameters', async () => {
    const [a, b] = await twoActivations();
    const code = { activationCode: a.activation_code as string };
    assert.equal((await assertLpa(DEMO_EMAIL, a.device_id, a.function_name, code, 'code'))?.id, a.id);
    const sameIccid = await assertLpa(
      DEMO_EMAIL,
      a.device_id,
      a.function_name,
      { ...code, iccid: a.iccid },
      'same iccid',
    );
    assert.equal(sameIccid?.id, a.id);
    const otherIccid = await assertLpa(
      DEMO_EMAIL,
      a.device_id,
      a.function_name,
      { ...code, iccid: b.iccid },
      'other iccid',
    );
    assert.equal(otherIccid?.status, 'NOT_REQUESTED');
    const otherCode = { activationCode: b.activation_code as string };
    assert.equal(
      (await assertLpa(DEMO_EMAIL, a.device_id, a.function_name, otherCode, 'other code'))?.status,
      'NOT_REQUESTED',
    );
    // Downloads by SM-DP+ address and matching id, when the seed recorded one.
    const byMatching = (await recorded()).find((op) => op.smdp_address && op.matching_id);
    if (byMatching) {
      const p = {
        smdpAddress: byMatching.smdp_address as string,
        matchingId: byMatching.matching_id as string,
      };
      const f = byMatching.function_name as string;
      assert.notEqual((await assertLpa(DEMO_EMAIL, byMatching.device_id, f, p, 'matching id'))?.id, null);
      const wrong = { ...p, matchingId: `${p.matchingId}-X` };
      assert.equal(
        (await assertLpa(DEMO_EMAIL, byMatching.device_id, f, wrong, 'other matching id'))?.status,
        'NOT_REQUESTED',
      );
    }
  });

  test('lpa(functionName) only matches an operation of that function', async () => {
    const operations = await recorded();
    const [a] = await twoActivations();
    // A function never recorded on the device answers NOT_REQUESTED with the same parameters.
    const unused = ['ENABLE_PROFILE', 'DISABLE_PROFILE', 'DELETE_PROFILE'].find(
      (f) => !operations.some((op) => op.device_id === a.device_id && op.function_name === f),
    )!;
    const other = await assertLpa(DEMO_EMAIL, a.device_id, unused, { iccid: a.iccid }, unused);
    assert.equal(other?.status, 'NOT_REQUESTED');
    assert.equal(
      (await assertLpa(DEMO_EMAIL, a.device_id, 'GET_EID', {}, 'GET_EID'))?.status,
      'NOT_REQUESTED',
    );
    // On a device with operations of several functions, each function finds its own operation.
    const device = operations.find((op) =>
      operations.some((o) => o.device_id === op.device_id && o.function_name !== op.function_name),
    );
    if (device) {
      for (const op of operations.filter((o) => o.device_id === device.device_id)) {
        const p =
          op.function_name === 'SET_NICKNAME' ? { iccid: op.iccid, nickname: op.nickname } : parametersOf(op);
        assert.equal(
          (await assertLpa(DEMO_EMAIL, op.device_id, op.function_name, p, op.function_name))?.id,
          op.id,
        );
      }
    }
  });

  test('lpa(imei) answers for that device only, and null for a device the caller may not see', async () => {
    const [a] = await twoActivations();
    const idle = await stack
      .knex('fleet.devices as x')
      .where(visibleTo(DEMO_EMAIL, 'devices', 'x.id'))
      .whereNotIn('x.id', stack.knex('fleet.lpa_operations').select('device_id'))
      .first('x.id');
    const p = parametersOf(a);
    const elsewhere = await assertLpa(DEMO_EMAIL, idle.id, a.function_name, p, 'device without operations');
    assert.equal(elsewhere?.status, 'NOT_REQUESTED');
    assert.equal((await gql(DEMO_EMAIL, LPA, { imei: idle.id, f: a.function_name, p })).lpa.imei, idle.id);
    // An operation of a device the demo account does not see: null for it, found by its owner.
    const foreign = (await recorded(GLOBEX)).find((op) => !op.function_name.startsWith('SET_'))!;
    const fp = parametersOf(foreign);
    assert.equal(await assertLpa(DEMO_EMAIL, foreign.device_id, foreign.function_name, fp, 'hidden'), null);
    assert.equal(
      (await assertLpa(GLOBEX, foreign.device_id, foreign.function_name, fp, 'own'))?.id,
      foreign.id,
    );
    // The North dispatcher does not see every Acme device with an operation.
    const northDevices = new Set((await recorded(NORTH)).map((op) => op.device_id));
    const hidden = (await recorded()).find((op) => !northDevices.has(op.device_id));
    if (hidden) {
      assert.equal(
        await assertLpa(
          NORTH,
          hidden.device_id,
          hidden.function_name,
          parametersOf(hidden),
          'hidden from North',
        ),
        null,
      );
    }
  });

  test('lpa refuses parameters the function cannot work with: BAD_USER_INPUT', async () => {
    const [a] = await recorded();
    for (const [f, p] of [
      ['DOWNLOAD_AND_ENABLE_PROFILE', {}],
      ['DOWNLOAD_PROFILE', { smdpAddress: 'smdp.example' }],
      ['ENABLE_PROFILE', {}],
      ['DISABLE_PROFILE', { iccid: '1234' }],
      ['SET_NICKNAME', { iccid: a!.iccid }],
      ['DOWNLOAD_AND_ENABLE_PROFILE', { activationCode: 'not-an-activation-code' }],
    ] as const) {
      assert.deepEqual(
        await errorCodes(DEMO_EMAIL, LPA, { imei: a!.device_id, f, p }),
        ['BAD_USER_INPUT'],
        `${f} ${JSON.stringify(p)}`,
      );
    }
  });

  // -- metrics ------------------------------------------------------------------------------------

  test('metrics without filters is the whole catalog by name', async () => {
    const expected = (
      (await stack.knex('fleet.metrics').orderBy(['name', 'id']).pluck('id')) as unknown[]
    ).map(String);
    for (const email of [DEMO_EMAIL, GLOBEX]) {
      assert.deepEqual(
        (await walk(email, 'metrics', {}, 'id', 7)).map((r) => r.id),
        expected,
      );
    }
  });

  test('metrics(ids) returns exactly the metrics with those ids', async () => {
    const all = await ids(DEMO_EMAIL, 'metrics');
    const asked = [all[0]!, all[5]!, all[all.length - 1]!, 'no.such.metric'];
    const expected = await idsOf(stack.knex('fleet.metrics as x').whereIn('x.id', asked));
    assertSelects(await ids(DEMO_EMAIL, 'metrics', { ids: asked }), expected, all, 'metrics(ids)');
  });

  test('metrics(names) returns exactly the metrics with those names', async () => {
    const all = await ids(DEMO_EMAIL, 'metrics');
    const names = [
      ...((await stack.knex('fleet.metrics').orderBy('name').limit(2).pluck('name')) as string[]),
      'no_such_metric',
    ];
    const expected = await idsOf(stack.knex('fleet.metrics as x').whereIn('x.name', names));
    assertSelects(await ids(DEMO_EMAIL, 'metrics', { names }), expected, all, 'metrics(names)');
    assert.deepEqual(
      await ids(DEMO_EMAIL, 'metrics', { names: [names[0]!.slice(0, -1)] }),
      [],
      'names are exact',
    );
  });

  test('metrics(nameContains) returns exactly the metrics whose name contains it, any case', async () => {
    const all = await ids(DEMO_EMAIL, 'metrics');
    for (const nameContains of ['TEMPERATURE', 'volt', 'Speed']) {
      const expected = await idsOf(
        stack.knex('fleet.metrics as x').whereILike('x.name', `%${nameContains}%`),
      );
      assertSelects(
        await ids(DEMO_EMAIL, 'metrics', { nameContains }),
        expected,
        all,
        `metrics(nameContains: ${nameContains})`,
      );
    }
    assert.deepEqual(await ids(DEMO_EMAIL, 'metrics', { nameContains: '%' }), []);
  });

  test('metrics(rawUnit) returns exactly the metrics sent in another unit (true) or not (false)', async () => {
    const all = await ids(DEMO_EMAIL, 'metrics');
    const other = await idsOf(
      stack
        .knex('fleet.metrics as x')
        .whereNotNull('x.raw_unit')
        .whereRaw('x.raw_unit is distinct from x.unit'),
    );
    const same = await idsOf(
      stack.knex('fleet.metrics as x').whereRaw('(x.raw_unit is null or x.raw_unit = x.unit)'),
    );
    assertSelects(await ids(DEMO_EMAIL, 'metrics', { rawUnit: true }), other, all, 'metrics(rawUnit: true)');
    assertSelects(await ids(DEMO_EMAIL, 'metrics', { rawUnit: false }), same, all, 'metrics(rawUnit: false)');
    const rows = await walk(DEMO_EMAIL, 'metrics', { rawUnit: true }, 'id unit rawUnit');
    assert.ok(rows.every((m) => m.rawUnit !== null && m.rawUnit !== m.unit));
  });

  test('metrics filters combine (nameContains and rawUnit; ids and names)', async () => {
    const all = await ids(DEMO_EMAIL, 'metrics');
    const byName = await idsOf(stack.knex('fleet.metrics as x').whereILike('x.name', '%temperature%'));
    const expected = await idsOf(
      stack
        .knex('fleet.metrics as x')
        .whereILike('x.name', '%temperature%')
        .whereNotNull('x.raw_unit')
        .whereRaw('x.raw_unit is distinct from x.unit'),
    );
    assertSelects(
      await ids(DEMO_EMAIL, 'metrics', { nameContains: 'temperature', rawUnit: true }),
      expected,
      all,
      'metrics(nameContains, rawUnit)',
    );
    assert.ok(expected.length < byName.length, 'rawUnit narrows nameContains');
    const names = (await stack
      .knex('fleet.metrics')
      .whereIn('id', all.slice(0, 4))
      .pluck('name')) as string[];
    const both = await idsOf(
      stack.knex('fleet.metrics as x').whereIn('x.id', all.slice(2, 6)).whereIn('x.name', names),
    );
    assert.equal(both.length, 2);
    assert.deepEqual(await ids(DEMO_EMAIL, 'metrics', { ids: all.slice(2, 6), names }), both);
  });
});

// ================================================================================================

describe('wrong argument values through the gateway', () => {
  test('an unknown enum value, a wrong argument type or a missing required argument is GRAPHQL_VALIDATION_FAILED', async () => {
    for (const document of [
      '{ alertFeedbacks(status: WRONG) { count } }',
      '{ alertFeedbacks(language: KLINGON) { count } }',
      '{ description(subject: "DEVICE", id: "1") { id } }',
      '{ description(id: "1") { id } }',
      '{ campaigns(archived: "yes") { count } }',
      '{ lpa(imei: "1", functionName: FLY, parameters: {}) { id } }',
      '{ lpa(imei: "1", functionName: GET_EID) { id } }',
      '{ metrics(rawUnit: 1) { count } }',
      '{ alertTemplate { id } }',
    ]) {
      assert.deepEqual(await errorCodes(DEMO_EMAIL, document), ['GRAPHQL_VALIDATION_FAILED'], document);
    }
  });

  test('a wrong value in a variable, a tampered pageId or a pageSize over the maximum is BAD_USER_INPUT', async () => {
    const first = await gql(DEMO_EMAIL, '{ metrics(pageSize: 2) { next } }');
    const cases: Array<[string, Record<string, unknown>]> = [
      ['query($s: DescriptionSubject!) { description(subject: $s, id: "1") { id } }', { s: 'TRUCK' }],
      ['query($l: LangArg) { alertFeedbacks(language: $l) { count } }', { l: 'KLINGON' }],
      ['query($s: VehicleAlertFeedbackStatusArg) { alertFeedbacks(status: $s) { count } }', { s: 'MAYBE' }],
      ['query($u: Boolean) { clientIdentifications(usable: $u) { count } }', { u: 'yes' }],
      ['{ campaigns(pageSize: 101) { count } }', {}],
      ['{ metrics(pageSize: 501) { count } }', {}],
      ['{ alertFeedbacks(pageSize: 0) { count } }', {}],
      ['query($p: ID) { metrics(pageId: $p, rawUnit: true) { count } }', { p: first.metrics.next }],
      ['query($p: ID) { logfetchActions(pageId: $p) { count } }', { p: first.metrics.next }],
      ['query($p: ID) { metrics(pageId: $p) { count } }', { p: 'garbage' }],
    ];
    for (const [document, variables] of cases) {
      assert.deepEqual(await errorCodes(DEMO_EMAIL, document, variables), ['BAD_USER_INPUT'], document);
    }
  });
});

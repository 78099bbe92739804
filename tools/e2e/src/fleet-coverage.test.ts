/**
 * Every fleet-core field, through the real path, generated from fleet-core's own schema so that a
 * field added later is covered without touching this file:
 *
 * - for every root query, a document selecting every field of every type it reaches (each type
 *   expanded in full the first time it is met, nested pages limited to a few rows) runs as the demo
 *   account through the gateway; it answers without errors, and exactly as fleet-core answers the
 *   same document directly (the gateway adds and loses nothing);
 * - across those answers, every field of every fleet-core type holds a value at least once (no
 *   field is a stub, and the seeded data exercises it);
 * - the same documents, run by an account of another organization with the demo organization's
 *   ids as arguments, reach none of the demo organization's objects (single lookups are null, and
 *   no object of the demo answers appears anywhere in theirs, global catalogs aside), and a direct
 *   `_entities` call to fleet-core with those ids gives null for each entity type.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  buildClientSchema,
  getIntrospectionQuery,
  getNamedType,
  isObjectType,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
  type IntrospectionQuery,
} from 'graphql';
import { postGraphQL, WHOLE_SCHEMA_LIMITS } from '@fleetgraph/testing';
import { DEMO_EMAIL, DEMO_PASSWORD } from '@fleetgraph/seed';
import { fullSelection, isPaged, requiredArgs, type SelectionRules } from './schema-walk';
import { startStack, type Stack } from './stack';

const OTHER_ORG_EMAIL = 'ops@globex.example';
/** Page size of nested pages (small answers) and of root pages (enough rows to meet most data). */
const NESTED_PAGE = 4;
const ROOT_PAGE = 25;
/** Object hops below a root before types are no longer expanded. */
const MAX_HOPS = 4;
/**
 * Types that are catalogs shared by every organization by design (same rows for everyone):
 * products, metrics, log-fetch actions, the onboarding provider list and workshops (shops are
 * public businesses that organizations partner with).
 */
const GLOBAL_TYPES = new Set(['Product', 'Metric', 'LogfetchAction', 'OnboardingProvider', 'Workshop']);

/** Root queries run a second time with arguments that reach otherwise hidden data. */
const EXTRA_ARGS: Record<string, string[]> = {
  campaigns: ['archived: true'],
};

let stack: Stack;
let schema: GraphQLSchema;
let fleetUrl: string;
const tokens = { demo: '', other: '' };
/** The documents run, as (root query, arguments): every root once, some with extra arguments. */
let calls: Call[] = [];
let demoAnswers: Answers;

before(async () => {
  // Whole-schema documents are far larger than a client's: lift the gateway's size limits (the
  // limits have their own tests).
  stack = await startStack('e2e_fleet_coverage', WHOLE_SCHEMA_LIMITS);
  fleetUrl = stack.platform.urls.subgraphs['fleet-core']!;
  tokens.demo = await stack.login(DEMO_EMAIL, DEMO_PASSWORD);
  tokens.other = await stack.login(OTHER_ORG_EMAIL, DEMO_PASSWORD);
  const introspection = await postGraphQL(fleetUrl, getIntrospectionQuery(), {
    token: tokens.demo,
    headers: stack.platform.subgraphHeaders,
  });
  assert.equal(introspection.errors, undefined, JSON.stringify(introspection.errors));
  schema = buildClientSchema(introspection.data as unknown as IntrospectionQuery);

  // The demo account's answers: list queries first, then the lookups with ids they answered.
  const listCalls = rootFields()
    .filter((field) => requiredArgs(field).length === 0)
    .flatMap((field) => [
      { field, args: '' },
      ...(EXTRA_ARGS[field.name] ?? []).map((args) => ({ field, args })),
    ]);
  const lists = await runAll(tokens.demo, listCalls);
  const lookupCalls: Call[] = [];
  for (const field of rootFields())
    if (requiredArgs(field).length > 0)
      for (const args of await lookupArgs(lists, field)) lookupCalls.push({ field, args });
  const lookups = await runAll(tokens.demo, lookupCalls);
  calls = [...listCalls, ...lookupCalls];
  demoAnswers = {
    data: new Map([...lists.data, ...lookups.data]),
    seen: new Set([...lists.seen, ...lookups.seen]),
    filled: new Set([...lists.filled, ...lookups.filled]),
    pagingErrors: [...lists.pagingErrors, ...lookups.pagingErrors],
  };
});
after(() => stack?.close());

/** Arguments given to nested fields: a few rows per page, and a time window covering all data. */
function nestedArgs(field: GraphQLField<unknown, unknown>): string {
  const args: string[] = [];
  for (const arg of field.args) {
    if (arg.name === 'pageSize') args.push(`pageSize: ${NESTED_PAGE}`);
    if (arg.name === 'from') args.push('from: "2000-01-01T00:00:00Z"');
    if (arg.name === 'to') args.push('to: "2100-01-01T00:00:00Z"');
  }
  return args.length > 0 ? `(${args.join(', ')})` : '';
}

const SELECTION: SelectionRules = { maxHops: MAX_HOPS, nestedArgs };

function rootDocument(field: GraphQLField<unknown, unknown>, args: string): string {
  const target = getNamedType(field.type) as GraphQLObjectType;
  const paged = field.args.some((arg) => arg.name === 'pageSize');
  const allArgs = [paged ? `pageSize: ${ROOT_PAGE}` : '', args].filter(Boolean).join(', ');
  return `query Coverage { ${field.name}${allArgs ? `(${allArgs})` : ''} { ${fullSelection(target, SELECTION)} } }`;
}

interface Call {
  field: GraphQLField<unknown, unknown>;
  args: string;
}
const label = ({ field, args }: Call) => `${field.name}(${args})`;

interface Answers {
  /** Answer per call (label). */
  data: Map<string, unknown>;
  /** `Type:id` of every object answered. */
  seen: Set<string>;
  /** `Type.field` of every field that held a value (not null, not an empty list). */
  filled: Set<string>;
  /** Pages whose `next` disagrees with their `count` and rows. */
  pagingErrors: string[];
}

/**
 * Records what an answer holds. A page's `next` is checked instead of required: it must be set
 * exactly when `count` exceeds the rows of this page.
 */
function walk(value: unknown, answers: Answers, path: string): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => walk(item, answers, `${path}.${i}`));
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const object = value as Record<string, unknown>;
  const typename = object.__typename as string | undefined;
  if (typename && typeof object.id === 'string') answers.seen.add(`${typename}:${object.id}`);
  if (typename?.endsWith('Paged') && typeof object.count === 'number') {
    const rows = Object.entries(object).find(
      ([key, v]) => key !== 'next' && Array.isArray(v),
    )?.[1] as unknown[];
    if (rows && object.count > rows.length !== (object.next !== null))
      answers.pagingErrors.push(
        `${path}: count ${object.count}, ${rows.length} rows, next ${String(object.next)}`,
      );
  }
  for (const [key, child] of Object.entries(object)) {
    if (key === '__typename') continue;
    if (typename && child !== null && !(Array.isArray(child) && child.length === 0))
      answers.filled.add(`${typename}.${key}`);
    walk(child, answers, `${path}.${key}`);
  }
}

async function runAll(token: string, run: Call[]): Promise<Answers> {
  const answers: Answers = { data: new Map(), seen: new Set(), filled: new Set(), pagingErrors: [] };
  for (const call of run) {
    const response = await postGraphQL(stack.platform.urls.graphql, rootDocument(call.field, call.args), {
      token,
    });
    assert.equal(response.errors, undefined, `${label(call)}: ${JSON.stringify(response.errors)}`);
    answers.data.set(label(call), response.data?.[call.field.name]);
    walk(response.data, answers, label(call));
  }
  return answers;
}

function rootFields(): GraphQLField<unknown, unknown>[] {
  return Object.values(schema.getQueryType()!.getFields()).filter((field) => !field.name.startsWith('_'));
}

/** Every object type of fleet-core a client can reach (federation's own types aside). */
function fleetObjectTypes(): GraphQLObjectType[] {
  return Object.values(schema.getTypeMap()).filter(
    (type): type is GraphQLObjectType =>
      isObjectType(type) && !type.name.startsWith('_') && type.name !== 'Query',
  );
}

const ids = (answers: Answers, typename: string) =>
  [...answers.seen]
    .filter((key) => key.startsWith(`${typename}:`))
    .map((key) => key.slice(typename.length + 1));

/** Arguments of the root lookups that need them, from what the list queries answered. */
async function lookupArgs(answers: Answers, field: GraphQLField<unknown, unknown>): Promise<string[]> {
  const required = requiredArgs(field);
  if (field.name === 'description') {
    const row = await stack
      .knex('fleet.descriptions as d')
      .join('fleet.accounts as a', 'a.organization_id', 'd.organization_id')
      .where('a.email', DEMO_EMAIL)
      .where('d.subject', 'DEVICE')
      .first('d.subject', 'd.subject_id');
    return [`subject: ${row.subject}, id: ${JSON.stringify(row.subject_id)}`];
  }
  if (field.name === 'lpa') {
    // For each recorded function, its newest operation, asked for with the parameters it was recorded with.
    const rows = await stack
      .knex('fleet.lpa_operations as l')
      .join('fleet.devices as d', 'd.id', 'l.device_id')
      .join('fleet.accounts as a', 'a.organization_id', 'd.organization_id')
      .where('a.email', DEMO_EMAIL)
      .distinctOn('l.function_name')
      .orderBy([{ column: 'l.function_name' }, { column: 'l.requested_at', order: 'desc' }])
      .select('l.*');
    return rows.map((row) => {
      const parameters = Object.entries({
        iccid: row.iccid,
        activationCode: row.activation_code,
        smdpAddress: row.smdp_address,
        matchingId: row.matching_id,
        nickname: row.nickname,
      })
        .filter(([, value]) => value !== null)
        .map(([name, value]) => `${name}: ${JSON.stringify(value)}`)
        .join(', ');
      return `imei: ${JSON.stringify(row.device_id)}, functionName: ${row.function_name}, parameters: { ${parameters} }`;
    });
  }
  if (required.length === 1 && required[0]!.name === 'id') {
    const typename = getNamedType(field.type).name;
    const [id] = ids(answers, typename);
    assert.ok(id, `no ${typename} id was answered by the list queries, for ${field.name}(id)`);
    return [`id: ${JSON.stringify(id)}`];
  }
  assert.fail(`root query ${field.name} needs arguments this test does not know how to give`);
}

describe('every fleet-core field through the gateway', () => {
  test('every root query answers through the gateway exactly as fleet-core answers it directly', async () => {
    for (const call of calls) {
      const direct = await postGraphQL(fleetUrl, rootDocument(call.field, call.args), {
        token: tokens.demo,
        headers: stack.platform.subgraphHeaders,
      });
      assert.equal(direct.errors, undefined, `${label(call)}: ${JSON.stringify(direct.errors)}`);
      assert.deepEqual(
        demoAnswers.data.get(label(call)),
        direct.data?.[call.field.name],
        `${label(call)} differs`,
      );
    }
  });

  test('every field of every fleet-core type holds a value in the seeded answers', () => {
    const missing: string[] = [];
    for (const type of fleetObjectTypes())
      for (const field of Object.values(type.getFields()))
        if (
          !(isPaged(type) && field.name === 'next') &&
          !demoAnswers.filled.has(`${type.name}.${field.name}`)
        )
          missing.push(`${type.name}.${field.name}`);
    assert.deepEqual(missing, [], `fields never answered with a value: ${missing.join(', ')}`);
  });

  test('every page has a next cursor exactly when its count exceeds its rows', () => {
    assert.deepEqual(demoAnswers.pagingErrors, []);
    assert.ok(demoAnswers.filled.has('DevicePaged.next'), 'some pages were cut (their next was checked)');
  });
});

describe('another organization reaches none of it', () => {
  test('with the demo organization ids as arguments, lookups are null and no demo object appears', async () => {
    const other = await runAll(tokens.other, calls);
    for (const call of calls)
      if (requiredArgs(call.field).length > 0)
        assert.equal(
          other.data.get(label(call)),
          null,
          `${label(call)} is not null for another organization`,
        );

    const leaked = [...other.seen].filter(
      (key) => demoAnswers.seen.has(key) && !GLOBAL_TYPES.has(key.slice(0, key.indexOf(':'))),
    );
    assert.deepEqual(leaked, [], 'objects of the demo organization answered to another organization');
    // Not vacuous: the other organization does see its own fleet.
    for (const typename of ['Account', 'Group', 'Device', 'Vehicle', 'Driver'])
      assert.ok(ids(other, typename).length > 0, `the other organization sees its own ${typename}s`);
  });

  test('a direct _entities call to fleet-core with the demo ids is null for every entity type', async () => {
    for (const typename of ['Account', 'Group', 'Device', 'Vehicle', 'Driver']) {
      const representations = ids(demoAnswers, typename)
        .slice(0, 5)
        .map((id) => ({ __typename: typename, id }));
      assert.ok(representations.length > 0, `demo answers hold ${typename} ids`);
      const document = `query ($r: [_Any!]!) { _entities(representations: $r) { ... on ${typename} { id } } }`;
      const mine = await postGraphQL(fleetUrl, document, {
        headers: stack.platform.subgraphHeaders,
        token: tokens.demo,
        variables: { r: representations },
      });
      assert.deepEqual(
        (mine.data as { _entities: unknown[] })._entities,
        representations.map(({ id }) => ({ id })),
        `control: the demo account resolves its own ${typename}s`,
      );
      const theirs = await postGraphQL(fleetUrl, document, {
        headers: stack.platform.subgraphHeaders,
        token: tokens.other,
        variables: { r: representations },
      });
      assert.equal(theirs.errors, undefined, JSON.stringify(theirs.errors));
      assert.deepEqual(
        (theirs.data as { _entities: unknown[] })._entities,
        representations.map(() => null),
        `${typename} entities of the demo organization resolve to null for another organization`,
      );
    }
  });
});

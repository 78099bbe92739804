/**
 * Scopes mean what the consent page says (libs/auth scopes.ts): a `public` token reads the whole
 * graph the user can see; a `profile` token reads the signed-in account's own profile fields and
 * nothing of the fleet nor anyone else's profile, through the gateway and on a subgraph's port
 * alike, where anything more is refused whole with HTTP 403 INSUFFICIENT_SCOPE (never served,
 * never silently dropped). A walk of the real graph asks every root field, and every field with
 * an `id` argument with a colleague's id, under every scope of the catalog.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  buildClientSchema,
  getIntrospectionQuery,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLSchema,
  type IntrospectionQuery,
} from 'graphql';
import { graphAccess, PROFILE_FIELDS, SCOPES } from '@fleetgraph/auth';
import { DEMO_EMAIL, DEMO_PASSWORD } from '@fleetgraph/seed';
import { postGraphQL } from '@fleetgraph/testing';
import { tokenThroughCodeFlow } from './code-flow';
import { requiredArgs, type AnyField } from './schema-walk';
import { startStack, type Stack } from './stack';

let stack: Stack;
const tokens: Record<string, string> = {};
let me: string;
let colleague: { id: string; email: string };
before(async () => {
  stack = await startStack('e2e_scopes', { RATE_LIMIT_PER_MINUTE: '0' });
  for (const scope of ['public', 'profile']) {
    const response = await fetch(`${stack.platform.urls.sso}/oauth/token`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'password',
        username: DEMO_EMAIL,
        password: DEMO_PASSWORD,
        scope,
      }),
    });
    const body = (await response.json()) as { access_token: string; scope: string };
    assert.equal(body.scope, scope);
    tokens[scope] = body.access_token;
  }
  // The other scopes of the catalog only come from an application's authorization.
  for (const { name } of SCOPES)
    tokens[name] ??= await tokenThroughCodeFlow(stack, { email: DEMO_EMAIL, password: DEMO_PASSWORD }, name);
  const answer = await viaGateway(
    'public',
    '{ account { id } accounts(pageSize: 20) { list { id email } } }',
  );
  me = answer.data.account.id;
  colleague = answer.data.accounts.list.find((a: { id: string }) => a.id !== me);
  assert.ok(colleague, 'the demo user sees a colleague');
});
after(() => stack?.close());

const FLEET = '{ devices(pageSize: 1) { list { id } } }';
const PROFILE = '{ account { id fullName email language } }';
function viaGateway(scope: string, query: string, variables?: Record<string, unknown>) {
  return postGraphQL(stack.platform.urls.graphql, query, {
    token: tokens[scope],
    ...(variables ? { variables } : {}),
  });
}
const direct = (scope: string, query: string) =>
  postGraphQL(stack.platform.urls.subgraphs['fleet-core']!, query, {
    token: tokens[scope],
    headers: stack.platform.subgraphHeaders,
  });

function assertRefused(answer: Awaited<ReturnType<typeof viaGateway>>, field: string) {
  assert.equal(answer.status, 403, JSON.stringify(answer));
  assert.ok(!answer.data, 'nothing served');
  assert.equal(answer.errors?.[0]?.extensions?.code, 'INSUFFICIENT_SCOPE');
  assert.equal(answer.errors?.[0]?.extensions?.field, field);
}

test('a public token reads the profile and the fleet', async () => {
  const profile = await viaGateway('public', PROFILE);
  assert.equal(profile.data?.account.email, DEMO_EMAIL, JSON.stringify(profile));
  const fleet = await viaGateway('public', FLEET);
  assert.equal(fleet.errors, undefined, JSON.stringify(fleet.errors));
  assert.equal(fleet.data?.devices.list.length, 1);
});

test('a profile token reads the profile fields, through the gateway and directly', async () => {
  for (const answer of [await viaGateway('profile', PROFILE), await direct('profile', PROFILE)]) {
    assert.equal(answer.errors, undefined, JSON.stringify(answer.errors));
    assert.equal(answer.data?.account.email, DEMO_EMAIL);
  }
});

test('a profile token asking fleet data is refused whole, at the gateway and on the subgraph port', async () => {
  assertRefused(await viaGateway('profile', FLEET), 'devices');
  assertRefused(
    await viaGateway('profile', '{ account { fullName groups { list { label } } } }'),
    'account.groups',
  );
  assertRefused(
    await viaGateway('profile', `${PROFILE.slice(0, -1)} devices(pageSize: 1) { count } }`),
    'devices',
  );
  assertRefused(await direct('profile', FLEET), 'devices');
  const viaFragment = 'query { ...F } fragment F on Query { account { fullName organizationId } }';
  assertRefused(await viaGateway('profile', viaFragment), 'account.organizationId');
});

test("a profile token reads its own account by id, never a colleague's", async () => {
  const read = `{ a0: account(id: "${colleague.id}") { email fullName } }`;
  // The colleague's profile is there to be read: a public token gets it.
  assert.equal((await viaGateway('public', read)).data?.a0.email, colleague.email);
  assertRefused(await viaGateway('profile', read), 'account(id)');
  assertRefused(await direct('profile', read), 'account(id)');
  const byVariable = 'query($id: ID) { account(id: $id) { email } }';
  assertRefused(await viaGateway('profile', byVariable, { id: colleague.id }), 'account(id)');
  const own = await viaGateway('profile', byVariable, { id: me.toUpperCase() });
  assert.equal(own.data?.account.email, DEMO_EMAIL, JSON.stringify(own));
});

/** A value of an input type for a call that must only get past validation. */
function placeholder(type: GraphQLInputType, id: string): string {
  if (isNonNullType(type)) return placeholder(type.ofType, id);
  if (isListType(type)) return `[${placeholder(type.ofType, id)}]`;
  if (isEnumType(type)) return type.getValues()[0]!.name;
  if (isInputObjectType(type)) {
    const fields = Object.values(type.getFields()).filter((f) => isNonNullType(f.type));
    return `{ ${fields.map((f) => `${f.name}: ${placeholder(f.type, id)}`).join(', ')} }`;
  }
  const scalar = getNamedType(type).name;
  if (scalar === 'ID') return JSON.stringify(id);
  if (scalar === 'Int' || scalar === 'Float') return '1';
  if (scalar === 'Boolean') return 'true';
  return '"x"';
}

const selectionOf = (field: AnyField) => {
  const type = getNamedType(field.type);
  return isScalarType(type) || isEnumType(type) ? '' : ' { __typename }';
};

/** `name(args...)` with every required argument, and `id` (when it has one) set to `id`. */
function call(field: AnyField, id: string): string {
  const args = field.args.filter((a) => a.name === 'id' || requiredArgs(field).includes(a));
  const list = args.map((a) => `${a.name}: ${placeholder(a.type, id)}`).join(', ');
  return `${field.name}${list ? `(${list})` : ''}`;
}

interface Probe {
  /** The root field: what INSUFFICIENT_SCOPE names when a token reads nothing of the graph. */
  root: string;
  /** The field INSUFFICIENT_SCOPE names when a profile token is refused. */
  refusedAs: string;
  document: string;
  /** Whether a profile token may ask it. */
  profileMay: boolean;
}

/**
 * Every root field (with a colleague's id where it takes one), `account` without id and with the
 * caller's own, and every field below the root taking an `id` argument, reached from a root
 * field returning its type.
 */
function probes(schema: GraphQLSchema): Probe[] {
  const query = schema.getQueryType()!;
  const out: Probe[] = Object.values(query.getFields()).map((field) => ({
    root: field.name,
    refusedAs:
      field.name === 'account' && field.args.some((a) => a.name === 'id') ? 'account(id)' : field.name,
    document: `{ ${call(field, colleague.id)}${selectionOf(field)} }`,
    profileMay: false,
  }));
  out.push(
    {
      root: 'account',
      refusedAs: 'account',
      document: '{ account { __typename id email } }',
      profileMay: true,
    },
    {
      root: 'account',
      refusedAs: 'account',
      document: `{ account(id: "${me}") { id email } }`,
      profileMay: true,
    },
  );
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type === query || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      if (!field.args.some((a) => a.name === 'id')) continue;
      const root = Object.values(query.getFields()).find(
        (r) => getNamedType(r.type) === type && requiredArgs(r).length === 0,
      );
      assert.ok(
        root,
        `${type.name}.${field.name} takes an id: the walk needs a root field returning ${type.name}`,
      );
      out.push({
        root: root.name,
        refusedAs: root.name === 'account' ? `account.${field.name}` : root.name,
        document: `{ ${root.name} { ${call(field, colleague.id)}${selectionOf(field)} } }`,
        profileMay: false,
      });
    }
  }
  return out;
}

test('every root field and every field with an id argument, under every scope of the catalog', async () => {
  const introspection = await viaGateway('public', getIntrospectionQuery());
  assert.equal(introspection.errors, undefined, JSON.stringify(introspection.errors));
  const schema = buildClientSchema(introspection.data as IntrospectionQuery);
  const all = probes(schema);
  assert.ok(all.length > 50, `${all.length} probes`);
  for (const { name } of SCOPES) {
    const access = graphAccess([name]);
    for (const probe of all) {
      const answer = await viaGateway(name, probe.document);
      const refused = answer.errors?.find((e) => e.extensions?.code === 'INSUFFICIENT_SCOPE');
      const may = access === 'all' || (access === 'profile' && probe.profileMay);
      const label = `${name}: ${probe.document.slice(0, 200)}`;
      if (may) {
        assert.equal(refused, undefined, `${label} is allowed: ${JSON.stringify(answer.errors)}`);
        assert.ok(answer.status < 500, `${label}: HTTP ${answer.status}`);
      } else {
        assert.equal(answer.status, 403, `${label}: ${JSON.stringify(answer).slice(0, 300)}`);
        const field = access === 'profile' ? probe.refusedAs : probe.root;
        assert.equal(refused?.extensions?.field, field, label);
        assert.ok(!answer.data, `${label}: nothing served`);
      }
    }
  }
});

test('a profile token selects exactly the profile fields of its account, none leading further', async () => {
  const introspection = await viaGateway('public', getIntrospectionQuery());
  const schema = buildClientSchema(introspection.data as IntrospectionQuery);
  const account = schema.getType('Account') as GraphQLObjectType;
  const allowed: string[] = [];
  for (const field of Object.values(account.getFields())) {
    const answer = await viaGateway(
      'profile',
      `{ account { ${call(field, colleague.id)}${selectionOf(field)} } }`,
    );
    const refused = answer.errors?.find((e) => e.extensions?.code === 'INSUFFICIENT_SCOPE');
    if (refused) assert.equal(refused.extensions?.field, `account.${field.name}`);
    else {
      assert.equal(answer.errors, undefined, `account.${field.name}: ${JSON.stringify(answer.errors)}`);
      allowed.push(field.name);
    }
  }
  assert.deepEqual(allowed.sort(), [...PROFILE_FIELDS].filter((f) => f !== '__typename').sort());
  for (const name of allowed) assert.equal(selectionOf(account.getFields()[name]!), '', `${name} is a leaf`);
});

/**
 * Each app connects as its own database role (DATABASE_ROLES=auto, the default of `npm start`):
 * proven on the running platform by who its connections are, and by what PostgreSQL lets those
 * roles do.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEMO_EMAIL, DEMO_PASSWORD } from '@fleetgraph/seed';
import { postGraphQL } from '@fleetgraph/testing';
import { startStack, type Stack } from './stack';

let stack: Stack;
before(async () => {
  stack = await startStack('e2e_roles');
});
after(() => stack?.close());

const databaseName = () => new URL(stack.platform.databaseUrl).pathname.slice(1);
const roleOf = (app: string) => stack.roleOf(app);
const connectAs = (app: string) => stack.connectAs(app);

test('a query through the gateway is served by subgraphs connected as their own roles', async () => {
  const token = await stack.login(DEMO_EMAIL, DEMO_PASSWORD);
  const answer = await postGraphQL(
    stack.platform.urls.graphql,
    '{ account { fullName } devices(pageSize: 1) { list { id } } }',
    { token },
  );
  assert.equal(answer.errors, undefined, JSON.stringify(answer));
  assert.equal(typeof answer.data.account.fullName, 'string');
  assert.equal(answer.data.devices.list.length, 1);
  const sessions = await stack.knex.raw(
    `select distinct application_name, usename from pg_stat_activity where datname = ? and application_name in ('fleet-core', 'sso')`,
    [databaseName()],
  );
  const users = Object.fromEntries(
    sessions.rows.map((r: { application_name: string; usename: string }) => [r.application_name, r.usename]),
  );
  assert.equal(users['fleet-core'], roleOf('fleet-core'));
  assert.equal(users.sso, roleOf('sso'));
});

test("a subgraph's role reads fleet-core's contract but neither fleet-core's nor the SSO's tables", async () => {
  const dvir = connectAs('dvir');
  const groups = await dvir('fleet_contract.groups_v1').count({ n: '*' });
  assert.ok(Number(groups[0]!.n) > 0, 'the contract answers with the demo groups');
  await assert.rejects(dvir('fleet.devices').select('id'), /permission denied for schema fleet/);
  await assert.rejects(dvir('sso.users').select('email'), /permission denied for schema sso/);
  await assert.rejects(dvir('fleet_contract.groups_v1').del(), /permission denied|cannot delete/);
});

test("the SSO's role owns its schema and reads no fleet data", async () => {
  const sso = connectAs('sso');
  const users = await sso('sso.users').count({ n: '*' });
  assert.ok(Number(users[0]!.n) > 0);
  await assert.rejects(
    sso('fleet_contract.accounts_v1').select('id'),
    /permission denied for schema fleet_contract/,
  );
});

test("every token verifier's role reads the SSO's revocation contract, not its tables", async () => {
  for (const app of ['gateway', 'fleet-core', 'dvir']) {
    const verifier = connectAs(app);
    const revoked = await verifier('sso_contract.revoked_access_tokens_v1').select('jti');
    assert.ok(Array.isArray(revoked), `${app} reads the revocation contract`);
    await assert.rejects(verifier('sso.access_tokens').select('jti'), /permission denied for schema sso/);
  }
});

/**
 * The walking skeleton, end to end: password grant at the real SSO -> JWT -> gateway ->
 * fleet-core -> PostgreSQL, on the seeded demo data.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { metricSample, postGraphQL } from '@fleetgraph/testing';
import { DEMO_EMAIL, DEMO_PASSWORD } from '@fleetgraph/seed';
import { curlCommands } from '@fleetgraph/start';
import { startStack, type Stack } from './stack';

let stack: Stack;
before(async () => {
  stack = await startStack('e2e_skeleton');
});
after(() => stack?.close());

const orgOf = async (email: string) =>
  (await stack.knex('fleet.accounts').where({ email }).first('organization_id', 'id')) as {
    organization_id: string;
    id: string;
  };

/** The labels of the groups an account may see, computed independently from the closure. */
async function expectedGroupLabels(accountId: string): Promise<string[]> {
  const rows = await stack.knex.raw(
    `with recursive reach(id) as (
       select group_id from fleet.group_accounts where account_id = ?
       union select p.group_id from fleet.group_parents p join reach r on p.parent_id = r.id)
     select g.label from fleet.groups g join reach r on r.id = g.id order by g.label`,
    [accountId],
  );
  return rows.rows.map((r: { label: string }) => r.label);
}

describe('start banner', () => {
  test('the printed curl commands get a token and query the graph', async () => {
    const { stdout } = await promisify(execFile)('bash', ['-c', curlCommands(stack.platform.urls)]);
    const body = JSON.parse(stdout);
    assert.equal(body.errors, undefined, stdout);
    assert.equal(typeof body.data.account.fullName, 'string');
    const demo = await orgOf(DEMO_EMAIL);
    assert.deepEqual(
      body.data.account.groups.list.map((g: { label: string }) => g.label).sort(),
      (await expectedGroupLabels(demo.id)).sort(),
    );
  });
});

describe('password grant to gateway query', () => {
  test('the caller gets its own account and exactly the groups and devices it may see', async () => {
    const token = await stack.login(DEMO_EMAIL, DEMO_PASSWORD);
    const demo = await orgOf(DEMO_EMAIL);
    const res = await postGraphQL(
      stack.platform.urls.graphql,
      '{ account { id email groups(pageSize: 200) { count list { label } } devices(pageSize: 500) { count } } }',
      { token },
    );
    assert.equal(res.errors, undefined, JSON.stringify(res.errors));
    assert.equal(res.data!.account.id, demo.id);
    assert.equal(res.data!.account.email, DEMO_EMAIL);
    const expected = await expectedGroupLabels(demo.id);
    assert.deepEqual(
      res.data!.account.groups.list.map((g: { label: string }) => g.label).sort(),
      [...expected].sort(),
    );
    const deviceCount = await stack.knex.raw(
      `with recursive reach(id) as (select group_id from fleet.group_accounts where account_id = ?
         union select p.group_id from fleet.group_parents p join reach r on p.parent_id = r.id)
       select count(distinct gd.device_id)::int as n from fleet.group_devices gd join reach r on r.id = gd.group_id`,
      [demo.id],
    );
    assert.equal(res.data!.account.devices.count, deviceCount.rows[0].n);
    assert.ok(deviceCount.rows[0].n > 0);
  });

  test('an account of another organization sees none of them: by id, nested, or by a direct _entities call', async () => {
    const demo = await orgOf(DEMO_EMAIL);
    const other = await stack
      .knex('fleet.accounts')
      .whereNot({ organization_id: demo.organization_id })
      .first('email', 'id');
    assert.ok(other, 'the seed has a second organization');
    const otherToken = await stack.login(other.email, DEMO_PASSWORD);
    const acmeGroup = await stack
      .knex('fleet.groups')
      .where({ organization_id: demo.organization_id })
      .first('id');
    const acmeDevice = await stack
      .knex('fleet.devices')
      .where({ organization_id: demo.organization_id })
      .first('id');

    const byId = await postGraphQL(
      stack.platform.urls.graphql,
      `query($g: ID!, $d: ID!, $a: ID!) { group(id: $g) { id } device(id: $d) { id } account(id: $a) { id } }`,
      { token: otherToken, variables: { g: acmeGroup.id, d: acmeDevice.id, a: demo.id } },
    );
    assert.equal(byId.errors, undefined);
    assert.deepEqual(byId.data, { group: null, device: null, account: null });

    const nested = await postGraphQL(
      stack.platform.urls.graphql,
      '{ groups(pageSize: 200) { list { id devices(pageSize: 500) { list { id } } } } }',
      {
        token: otherToken,
      },
    );
    // A failing query has no ids to leak: the check below only means something on real data.
    assert.equal(nested.errors, undefined, JSON.stringify(nested.errors));
    const groups: Array<{ id: string; devices: { list: Array<{ id: string }> } }> =
      nested.data?.groups?.list ?? [];
    assert.ok(groups.length > 0, 'the other organization sees its own groups');
    assert.ok(
      groups.some((g) => g.devices.list.length > 0),
      'and the devices in them',
    );
    const seen = JSON.stringify(nested.data);
    assert.ok(!seen.includes(acmeGroup.id), 'no group of the demo organization');
    assert.ok(!seen.includes(acmeDevice.id), 'no device of the demo organization');

    const entities = await postGraphQL(
      stack.platform.urls.subgraphs['fleet-core']!,
      `query($r: [_Any!]!) { _entities(representations: $r) { ... on Group { id } ... on Device { id } } }`,
      {
        token: otherToken,
        headers: stack.platform.subgraphHeaders,
        variables: {
          r: [
            { __typename: 'Group', id: acmeGroup.id },
            { __typename: 'Device', id: acmeDevice.id },
          ],
        },
      },
    );
    assert.equal(entities.errors, undefined);
    assert.deepEqual(entities.data, { _entities: [null, null] });
  });

  test('a direct subgraph call without a token is refused', async () => {
    const res = await postGraphQL(stack.platform.urls.subgraphs['fleet-core']!, '{ account { id } }', {
      headers: stack.platform.subgraphHeaders,
    });
    assert.equal(res.status, 401);
    assert.equal(res.errors?.[0]?.extensions?.code, 'UNAUTHENTICATED');
  });

  test('a direct subgraph call with a valid token but without the gateway secret is refused', async () => {
    const token = await stack.login(DEMO_EMAIL, DEMO_PASSWORD);
    const fleetCore = stack.platform.urls.subgraphs['fleet-core']!;
    const withSecret = await postGraphQL(fleetCore, '{ account { email } }', {
      token,
      headers: stack.platform.subgraphHeaders,
    });
    assert.equal(withSecret.data?.account.email, DEMO_EMAIL, 'control: with the secret it is served');
    const attempts: Record<string, string>[] = [{}, { 'x-fleetgraph-gateway': 'a-guess-of-the-secret' }];
    for (const headers of attempts) {
      const res = await postGraphQL(fleetCore, '{ account { email } }', { token, headers });
      assert.equal(res.status, 403);
      assert.equal(res.errors?.[0]?.extensions?.code, 'FORBIDDEN');
      assert.equal(res.data, null);
    }
  });

  test('a direct subgraph call is held to the gateway limits (200 aliased pages of 500)', async () => {
    const token = await stack.login(DEMO_EMAIL, DEMO_PASSWORD);
    const query = `{ ${Array.from({ length: 200 }, (_, i) => `d${i}: devices(pageSize: 500) { list { id } }`).join(' ')} }`;
    const res = await postGraphQL(stack.platform.urls.subgraphs['fleet-core']!, query, {
      token,
      headers: stack.platform.subgraphHeaders,
    });
    assert.equal(res.status, 400, JSON.stringify(res.errors));
    assert.equal(res.errors?.[0]?.extensions?.code, 'QUERY_TOO_COMPLEX');
  });
});

describe('one graph over several subgraphs', () => {
  test('a geodecode query and a fleet query answer in one request through the gateway', async () => {
    const token = await stack.login(DEMO_EMAIL, DEMO_PASSWORD);
    const res = await postGraphQL(
      stack.platform.urls.graphql,
      '{ account { email } geodecode(lat: 48.8566, lng: 2.3522, lang: "de") { elements { country countryCode city } } }',
      { token },
    );
    assert.equal(res.errors, undefined, JSON.stringify(res.errors));
    assert.equal(res.data!.account.email, DEMO_EMAIL);
    assert.equal(res.data!.geodecode.elements[0].countryCode, 'FR');
    assert.equal(res.data!.geodecode.elements[0].country, 'Frankreich');
  });
});

describe('answers passed through (engine/result-shaping/pass-through.ts)', () => {
  const passedThrough = async () =>
    metricSample(
      await (await fetch(`${stack.platform.urls.gateway}/metrics`)).text(),
      'gateway_subgraph_answers_passed_through_total{subgraph="fleet-core"}',
    ) ?? 0;

  const post = async (url: string, query: string, headers: Record<string, string>) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ query }),
    });
    assert.equal(response.status, 200);
    return response.text();
  };

  test('a page one subgraph answers is that subgraph’s own answer, sent as it came', async () => {
    const token = await stack.login(DEMO_EMAIL, DEMO_PASSWORD);
    const query =
      '{ devices(pageSize: 37) { count list { id status owner { fullName } currentVehicle { plate make model } groups { list { label } } } } }';
    const before = await passedThrough();
    const viaGateway = await post(stack.platform.urls.graphql, query, { authorization: `Bearer ${token}` });
    const direct = await post(stack.platform.urls.subgraphs['fleet-core']!, query, {
      authorization: `Bearer ${token}`,
      ...stack.platform.subgraphHeaders,
    });
    assert.equal(JSON.parse(direct).data.devices.list.length, 37, 'the subgraph answered the page');
    // The subgraph's bytes, then the gateway's own cost report.
    const { extensions } = JSON.parse(viaGateway) as { extensions: { cost: { requestedQueryCost: number } } };
    assert.equal(typeof extensions.cost.requestedQueryCost, 'number');
    const expected = `${direct.trim().slice(0, -1)},"extensions":${JSON.stringify(extensions)}}`;
    assert.equal(viaGateway.trim(), expected);
    assert.equal(await passedThrough(), before + 1);
  });

  test('a page that another subgraph extends is shaped from both answers', async () => {
    const token = await stack.login(DEMO_EMAIL, DEMO_PASSWORD);
    const before = await passedThrough();
    const res = await postGraphQL(
      stack.platform.urls.graphql,
      '{ devices(pageSize: 5) { list { id currentVehicle { plate inspectionReports(pageSize: 1) { count } } } } }',
      { token },
    );
    assert.equal(res.errors, undefined, JSON.stringify(res.errors));
    const vehicles = res
      .data!.devices.list.map((d: { currentVehicle: unknown }) => d.currentVehicle)
      .filter(Boolean);
    assert.ok(vehicles.length > 0);
    for (const vehicle of vehicles) assert.equal(typeof vehicle.inspectionReports.count, 'number');
    assert.equal(await passedThrough(), before);
  });
});

describe('paging through the gateway', () => {
  test('pageSize is respected and walking next visits every device once', async () => {
    const token = await stack.login(DEMO_EMAIL, DEMO_PASSWORD);
    const seen: string[] = [];
    let pageId: string | null = null;
    let total = 0;
    do {
      const res: any = await postGraphQL(
        stack.platform.urls.graphql,
        'query($p: ID) { devices(pageSize: 7, pageId: $p) { count next list { id } } }',
        {
          token,
          variables: { p: pageId },
        },
      );
      assert.equal(res.errors, undefined);
      assert.ok(res.data.devices.list.length <= 7);
      total = res.data.devices.count;
      seen.push(...res.data.devices.list.map((d: { id: string }) => d.id));
      pageId = res.data.devices.next;
    } while (pageId);
    assert.equal(seen.length, total);
    assert.equal(new Set(seen).size, total);
  });

  test('a tampered pageId and a pageSize over the maximum are BAD_USER_INPUT', async () => {
    const token = await stack.login(DEMO_EMAIL, DEMO_PASSWORD);
    const first: any = await postGraphQL(stack.platform.urls.graphql, '{ devices(pageSize: 2) { next } }', {
      token,
    });
    const tampered = first.data.devices.next.replace(/.$/, (c: string) => (c === 'A' ? 'B' : 'A'));
    const bad = await postGraphQL(
      stack.platform.urls.graphql,
      'query($p: ID) { devices(pageId: $p) { next } }',
      { token, variables: { p: tampered } },
    );
    assert.equal(bad.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
    const big = await postGraphQL(stack.platform.urls.graphql, '{ devices(pageSize: 100000) { next } }', {
      token,
    });
    assert.equal(big.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
    assert.match(big.errors![0]!.message, /pageSize must be between 1 and \d+/);
  });
});

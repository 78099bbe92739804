/**
 * One tenant cannot hurt another, through the real platform (SSO, gateway, subgraphs, PostgreSQL,
 * demo data):
 * - the defects flood: one user's 15-alias pages of defects with their attachments, each within
 *   the query limits, are charged their cost and refused RATE_LIMITED once the user's budget is
 *   spent, while another organization's requests keep answering;
 * - work nobody waits for stops: when the gateway gives up on dvir (its timeout), dvir's statement
 *   is cancelled in PostgreSQL although it would otherwise wait far longer;
 * - a picture too large to decode cheaply is refused by alpr before it is decoded, while another
 *   user's decodeVin is answered.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import sharp from 'sharp';
import { buildApp as buildGateway, loadGatewayConfig } from '@fleetgraph/gateway';
import { injectGraphQL, postGraphQL } from '@fleetgraph/testing';
import { DEMO_EMAIL, DEMO_PASSWORD } from '@fleetgraph/seed';
import { startStack, type Stack } from './stack';

const OTHER_ORG_EMAIL = 'ops@globex.example';
const FLOOD = `{ ${Array.from(
  { length: 15 },
  (_, i) =>
    `x${i}: defects(pageSize: 200) { list { id attachments(pageSize: 20) { list { id fileUrl } } reportedInInspectionReport { id } } }`,
).join(' ')} }`;
const SMALL = '{ inspectionReports(pageSize: 1) { count } }';

let stack: Stack;
let gateway: string;

before(async () => {
  // dvir's own statement bound far above any gateway's patience: a statement the gateway gave up
  // on can only go away early by being cancelled.
  stack = await startStack('tenant_fairness', { DATABASE_STATEMENT_TIMEOUT_MS: '120000' });
  gateway = stack.platform.urls.graphql;
});
after(() => stack?.close());

/** Waits until `condition` holds, asking PostgreSQL between checks (bounded). */
async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt++) {
    if (await condition()) return;
    await stack.knex.raw('select pg_sleep(0.05)');
  }
  assert.fail(`never: ${what}`);
}

test('the defects flood: the flooding user is refused by its budget, another organization keeps answering', async () => {
  const attacker = await stack.login(DEMO_EMAIL, DEMO_PASSWORD);
  const neighbour = await stack.login(OTHER_ORG_EMAIL, DEMO_PASSWORD);
  const outcomes: string[] = [];
  for (let i = 0; i < 8 && !outcomes.includes('RATE_LIMITED'); i++) {
    const [flood, small] = await Promise.all([
      postGraphQL(gateway, FLOOD, { token: attacker }),
      postGraphQL<{ inspectionReports: { count: number } }>(gateway, SMALL, { token: neighbour }),
    ]);
    assert.equal(small.errors, undefined, JSON.stringify(small.errors));
    assert.equal(typeof small.data?.inspectionReports.count, 'number');
    if (flood.status === 429) {
      assert.equal(flood.errors?.[0]?.extensions?.budget, 'user');
      outcomes.push('RATE_LIMITED');
    } else {
      assert.equal(flood.errors, undefined, JSON.stringify(flood.errors?.slice(0, 2)));
      const cost = flood.extensions?.cost as { requestedQueryCost: number };
      assert.ok(
        cost.requestedQueryCost > 100_000,
        `the flood is charged its cost (${cost.requestedQueryCost})`,
      );
      outcomes.push('served');
    }
  }
  assert.ok(outcomes.includes('served'), 'the flood query itself is within the limits');
  assert.equal(outcomes.at(-1), 'RATE_LIMITED', `outcomes: ${outcomes.join(', ')}`);
  const after = await postGraphQL(gateway, SMALL, { token: neighbour });
  assert.equal(after.errors, undefined);
});

test("when the gateway gives up on a subgraph, the subgraph's statement is cancelled", async () => {
  const token = await stack.login(OTHER_ORG_EMAIL, DEMO_PASSWORD);
  const waitingDvirStatements = async () => {
    const { rows } = await stack.knex.raw(
      `select count(*)::int as n from pg_stat_activity
        where datname = current_database() and application_name = 'dvir' and wait_event_type = 'Lock'`,
    );
    return rows[0].n as number;
  };
  // A second gateway of the platform that gives up on dvir quickly.
  const impatient = await buildGateway(
    loadGatewayConfig(stack.gatewayEnv({ SUBGRAPH_DVIR_TIMEOUT_MS: '1500' })),
  );
  const lock = await stack.knex.transaction();
  try {
    await lock.raw('lock table dvir.inspection_reports in access exclusive mode');
    const answer = injectGraphQL(impatient, SMALL, { token });
    await until(async () => (await waitingDvirStatements()) > 0, 'dvir waits on the lock');
    const response = await answer;
    assert.equal(response.errors?.[0]?.extensions?.code, 'SUBGRAPH_TIMEOUT', JSON.stringify(response.errors));
    // Still locked: the statement can only go away by being cancelled.
    await until(async () => (await waitingDvirStatements()) === 0, "dvir's abandoned statement is cancelled");
  } finally {
    await lock.rollback();
    await impatient.close();
  }
  const again = await postGraphQL(gateway, SMALL, { token });
  assert.equal(again.errors, undefined, 'dvir serves the next request');
});

test('a 6300×6300 picture is refused before it is decoded; another user is answered meanwhile', async () => {
  // A user whose budget no earlier test of this file spent (the flood drains the demo login's).
  const [attacker, neighbour] = await Promise.all([
    stack.login('dispatcher.north@acme.example', DEMO_PASSWORD),
    stack.login(OTHER_ORG_EMAIL, DEMO_PASSWORD),
  ]);
  const side = 6300;
  const stripes = Buffer.alloc(side * side);
  for (let row = 0; row < side; row += 2) stripes.fill(255, row * side, (row + 1) * side);
  const picture = (
    await sharp(stripes, { raw: { width: side, height: side, channels: 1 } })
      .png()
      .toBuffer()
  ).toString('base64');
  const [refused, vin] = await Promise.all([
    postGraphQL(
      gateway,
      'query($p: String!) { alpr(vehiclePicture: $p, country: "DE") { plate { text } } }',
      {
        token: attacker,
        variables: { p: picture },
      },
    ),
    postGraphQL<{ decodeVin: { make: string }[] }>(
      gateway,
      '{ decodeVin(vin: "1HGCM82633A004352") { make } }',
      {
        token: neighbour,
      },
    ),
  ]);
  assert.equal(refused.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT', JSON.stringify(refused.errors));
  assert.match(refused.errors![0]!.message, /39\.7 megapixels\): at most 24 megapixels/);
  assert.equal(vin.errors, undefined);
  assert.equal(vin.data?.decodeVin[0]?.make, 'Honda');
});

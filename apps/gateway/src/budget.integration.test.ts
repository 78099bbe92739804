/**
 * Cost budgets over HTTP through the real gateway: every charged answer reports its cost and what
 * remains (`extensions.cost`); a user over its budget is refused RATE_LIMITED (HTTP 429,
 * Retry-After, the budget named) before any subgraph call, while other users go on; many users of
 * one organization together meet the organization's budget, and a refused charge costs the user
 * nothing; the budget refills with the clock; an operation of introspection alone is charged its
 * roots' price to the user only, without a tenant lookup. In memory and with Redis.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, beforeEach, describe, test } from 'node:test';
import { deleteRedisKeys, injectGraphQL } from '@fleetgraph/testing';
import { stubbedGateways, type StubbedGateways } from './stub-subgraph.test-support';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** 2 points: the account field and its email. */
const QUERY = '{ account { email } }';
let stubs: StubbedGateways;

interface CostExtension {
  requestedQueryCost: number;
  throttleStatus?: { maximumAvailable: number; currentlyAvailable: number; restoreRate: number };
  organizationThrottleStatus?: { maximumAvailable: number; currentlyAvailable: number; restoreRate: number };
}

before(async () => {
  stubs = await stubbedGateways();
});
after(async () => {
  await stubs.close();
});

async function login(label: string, organization: string) {
  const uid = `${label}-${randomUUID()}`;
  const email = `${uid}@${organization}.example`;
  return { uid, email, token: await stubs.issuer.token({ uid, email }) };
}

for (const store of ['memory', 'Redis'] as const) {
  describe(`cost budgets (${store})`, () => {
    const prefix = `fleetgraph-test:${randomUUID()}:budget:`;
    const env: Record<string, string> = {
      MAX_COST: '6',
      COST_BUDGET_PER_MINUTE: '6',
      COST_BUDGET_ORGANIZATION_PER_MINUTE: '600',
      COST_BUDGET_LEASE: '1',
      COST_BUDGET_PREFIX: prefix,
      INTROSPECTION_ROOT_COST: '4',
      RATE_LIMIT_PER_MINUTE: '0',
      ...(store === 'Redis' ? { REDIS_URL } : {}),
    };
    let clock = Date.now();
    const frozen = { now: () => clock };
    beforeEach(() => {
      clock = Date.now();
    });
    after(async () => {
      if (store === 'Redis') await deleteRedisKeys(REDIS_URL, prefix);
    });

    test('each answer reports its cost; over the budget: 429 RATE_LIMITED, no subgraph call, others go on', async () => {
      const app = await stubs.gateway(env, frozen);
      const user = await login('spender', `org-${randomUUID()}`);
      const available: number[] = [];
      for (let i = 0; i < 3; i++) {
        const ok = await injectGraphQL(app, QUERY, { token: user.token });
        assert.equal(ok.status, 200, JSON.stringify(ok.errors));
        assert.deepEqual(ok.data, { account: { email: user.email } });
        const cost = ok.extensions?.cost as CostExtension;
        assert.equal(cost.requestedQueryCost, 2);
        assert.equal(cost.throttleStatus?.maximumAvailable, 6);
        assert.equal(cost.throttleStatus?.restoreRate, 0, '6 points per minute: 0.1 per second');
        available.push(cost.throttleStatus?.currentlyAvailable ?? -1);
      }
      assert.deepEqual(available, [4, 2, 0]);
      stubs.resetCalls();
      const refused = await injectGraphQL(app, QUERY, { token: user.token });
      assert.equal(refused.status, 429);
      assert.equal(refused.data, undefined);
      assert.equal(refused.headers['retry-after'], '20', '2 points at 6 per minute');
      const extensions = refused.errors?.[0]?.extensions;
      assert.equal(extensions?.code, 'RATE_LIMITED');
      assert.equal(extensions?.budget, 'user');
      assert.equal(extensions?.retryAfterSeconds, 20);
      assert.match(refused.errors?.[0]?.message ?? '', /costs 2 points.*budget of 6 points per minute/);
      assert.equal(stubs.calls(), 0, 'a refused request never reaches a subgraph');

      const other = await login('bystander', `org-${randomUUID()}`);
      const served = await injectGraphQL(app, QUERY, { token: other.token });
      assert.equal(served.status, 200);
      assert.deepEqual(served.data, { account: { email: other.email } });
    });

    test('the budget refills with the clock', async () => {
      const app = await stubs.gateway(env, frozen);
      const user = await login('refill', `org-${randomUUID()}`);
      for (let i = 0; i < 3; i++) await injectGraphQL(app, QUERY, { token: user.token });
      assert.equal((await injectGraphQL(app, QUERY, { token: user.token })).status, 429);
      clock += 20_000;
      const again = await injectGraphQL(app, QUERY, { token: user.token });
      assert.equal(again.status, 200, JSON.stringify(again.errors));
    });

    test('the users of one organization share its budget; a refused charge costs the user nothing', async () => {
      const app = await stubs.gateway({ ...env, COST_BUDGET_ORGANIZATION_PER_MINUTE: '6' }, frozen);
      const organization = `org-${randomUUID()}`;
      const first = await login('first', organization);
      const second = await login('second', organization);
      for (let i = 0; i < 2; i++) await injectGraphQL(app, QUERY, { token: first.token });
      const last = await injectGraphQL(app, QUERY, { token: second.token });
      assert.equal(last.status, 200, JSON.stringify(last.errors));
      assert.equal(
        (last.extensions?.cost as CostExtension).organizationThrottleStatus?.currentlyAvailable,
        0,
      );
      const refused = await injectGraphQL(app, QUERY, { token: second.token });
      assert.equal(refused.status, 429);
      assert.equal(refused.errors?.[0]?.extensions?.budget, 'organization');
      const cost = refused.errors?.[0]?.extensions?.cost as CostExtension;
      assert.equal(cost.throttleStatus?.currentlyAvailable, 2, "the user's charge was put back");
      const elsewhere = await login('elsewhere', `org-${randomUUID()}`);
      assert.equal((await injectGraphQL(app, QUERY, { token: elsewhere.token })).status, 200);
    });

    test('introspection alone is charged its roots to the user only, with no tenant lookup', async () => {
      const app = await stubs.gateway(env, frozen);
      const user = await login('introspect', `org-${randomUUID()}`);
      stubs.resetCalls();
      const response = await injectGraphQL(app, '{ __schema { queryType { name } } }', { token: user.token });
      assert.equal(response.status, 200, JSON.stringify(response.errors));
      const cost = response.extensions?.cost as CostExtension;
      assert.equal(cost.requestedQueryCost, 4);
      assert.equal(cost.organizationThrottleStatus, undefined);
      assert.equal(stubs.calls() + stubs.tenantLookups(), 0);
      const another = await injectGraphQL(app, '{ __schema { mutationType { name } } }', {
        token: user.token,
      });
      assert.equal(another.status, 429, 'another walk does not fit the 2 points left');
    });
  });
}

test('a budget under MAX_COST could never pay for the largest query: the config names it', async () => {
  await assert.rejects(
    stubs.gateway({ MAX_COST: '100', COST_BUDGET_PER_MINUTE: '50' }),
    /COST_BUDGET_PER_MINUTE: must be 0 \(off\) or at least MAX_COST \(100\)/,
  );
});

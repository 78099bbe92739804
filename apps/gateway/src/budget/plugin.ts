/**
 * The caller's tenant and the cost budgets as an Apollo Server plugin. It runs last among the
 * plugins that may answer an operation themselves (a query cache hit, a stored introspection
 * answer): work that is not done is not charged, and needs no tenant. Before execution it learns
 * the caller's tenant (tenants.ts; the subgraph calls queue by it), then charges the operation's
 * measured cost (limits/plugin.ts) plus each introspection root's price; a refused charge is
 * answered RATE_LIMITED (HTTP 429, Retry-After) without planning. A refused operation (limits,
 * validation) never reaches this plugin, so it costs neither a charge nor a tenant lookup. Every charged answer reports its cost and what remains in
 * `extensions.cost`, in the shape Shopify's GraphQL API uses, so clients can pace themselves:
 *
 *   { "requestedQueryCost": 301,
 *     "throttleStatus": { "maximumAvailable": 1000000, "currentlyAvailable": 999699, "restoreRate": 16667 },
 *     "organizationThrottleStatus": { ... } }
 */
import type { ApolloServerPlugin } from '@apollo/server';
import { HeaderMap } from '@apollo/server';
import type { GraphQLFormattedError } from 'graphql';
import type { UserContext } from '@fleetgraph/auth';
import { measureOf } from '../limits/plugin';
import { RATE_LIMITED } from '../rate-limit/context';
import type { BudgetCharge, CostBudget } from './budget';
import type { TenantDirectory } from './tenants';

export interface BudgetContext {
  user: UserContext;
  tenant: string;
  /** Operations the gateway runs for itself (the tenant lookup) are not charged. */
  internal?: boolean;
}

export interface BudgetPluginOptions<C> {
  /** Absent: no budget is charged (the tenant is still learnt). */
  budget: CostBudget | undefined;
  /** Points each `__schema`/`__type` root costs when the gateway has to walk the schema for it. */
  introspectionRootCost: number;
  tenants: TenantDirectory;
  /** The caller's organization id as the graph answers it (null: none). */
  organizationOf: (context: C) => Promise<string | null>;
}

/** What an answer reports in `extensions.cost`. */
export function costExtension(charge: BudgetCharge): Record<string, unknown> {
  return {
    requestedQueryCost: charge.cost,
    ...(charge.user ? { throttleStatus: charge.user } : {}),
    ...(charge.organization ? { organizationThrottleStatus: charge.organization } : {}),
  };
}

function refusal(charge: BudgetCharge, budget: CostBudget): GraphQLFormattedError {
  const retryAfterSeconds = Math.max(1, Math.ceil(charge.retryAfterMs / 1000));
  const perMinute = charge.refusedBy === 'organization' ? budget.organizationPerMinute : budget.userPerMinute;
  const whose = charge.refusedBy === 'organization' ? "your organization's" : 'your';
  return {
    message: `Over the cost budget: this query costs ${charge.cost} points and ${whose} budget of ${perMinute} points per minute holds fewer now. Retry in ${retryAfterSeconds} s, or ask for smaller pages.`,
    extensions: {
      code: RATE_LIMITED,
      budget: charge.refusedBy,
      retryAfterSeconds,
      cost: costExtension(charge),
    },
  };
}

export function budgetPlugin<C extends BudgetContext>(
  options: BudgetPluginOptions<C>,
): ApolloServerPlugin<C> {
  const { budget, introspectionRootCost, tenants, organizationOf } = options;
  return {
    async requestDidStart() {
      let charged: BudgetCharge | undefined;
      return {
        async responseForOperation({ contextValue }) {
          const measured = measureOf(contextValue);
          if (contextValue.internal || !measured) return null;
          // An operation of introspection and __typename only is answered by the gateway alone: no
          // subgraph call, so no tenant to learn, and only the user's budget pays for it.
          const touchesData = measured.cost > 0;
          if (touchesData)
            contextValue.tenant = await tenants.tenantOf(contextValue.user.uid, () =>
              organizationOf(contextValue),
            );
          const cost = measured.cost + measured.introspection * introspectionRootCost;
          // Nothing to pay for (`{ __typename }`): nothing charged, nothing reported.
          if (!budget || cost === 0) return null;
          charged = await budget.charge(
            contextValue.user.uid,
            touchesData ? contextValue.tenant : undefined,
            cost,
          );
          if (charged.allowed) return null;
          const error = refusal(charged, budget);
          const headers = new HeaderMap([['retry-after', String(error.extensions?.retryAfterSeconds)]]);
          return {
            http: { status: 429, headers },
            body: { kind: 'single', singleResult: { errors: [error] } },
          };
        },
        async willSendResponse({ response }) {
          if (!charged?.allowed || response.body.kind !== 'single') return;
          const result = response.body.singleResult;
          result.extensions = { ...result.extensions, cost: costExtension(charged) };
        },
      };
    },
  };
}

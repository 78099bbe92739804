/**
 * The query limits as environment variables, one definition for the gateway and every subgraph
 * (so a direct call to a subgraph is held to the gateway's limits, configured the same way):
 * MAX_DEPTH, MAX_ALIASES, MAX_TOKENS, MAX_COST, MAX_INTROSPECTION_ROOTS, MAX_NESTING. The page size
 * a paged field is costed at when a query gives none is the field's own `@paged` default, declared
 * in the schema.
 */
import { envField } from '@fleetgraph/service-kit';
import { DEFAULT_QUERY_LIMITS, type QueryLimits } from './limits';

/** Fields to spread into a service's environment schema. */
export const QUERY_LIMITS_ENV = {
  MAX_DEPTH: envField.int(DEFAULT_QUERY_LIMITS.maxDepth, 1),
  MAX_ALIASES: envField.int(DEFAULT_QUERY_LIMITS.maxAliases, 0),
  MAX_TOKENS: envField.int(DEFAULT_QUERY_LIMITS.maxTokens, 1),
  // 250k: two nested paged fields at their documented maxima (groups 200 x devices 500, cost
  // 200,801) pass, as the cross-service tests ask; three nested pages of the default 50 do not.
  MAX_COST: envField.int(DEFAULT_QUERY_LIMITS.maxCost, 1),
  MAX_INTROSPECTION_ROOTS: envField.int(DEFAULT_QUERY_LIMITS.maxIntrospectionRoots, 1),
  MAX_NESTING: envField.int(DEFAULT_QUERY_LIMITS.maxNesting, 1),
};

/** The limits from values parsed with QUERY_LIMITS_ENV. */
export function queryLimitsOf(parsed: Record<string, unknown>): QueryLimits {
  return {
    maxDepth: parsed.MAX_DEPTH as number,
    maxAliases: parsed.MAX_ALIASES as number,
    maxTokens: parsed.MAX_TOKENS as number,
    maxCost: parsed.MAX_COST as number,
    maxIntrospectionRoots: parsed.MAX_INTROSPECTION_ROOTS as number,
    maxNesting: parsed.MAX_NESTING as number,
  };
}

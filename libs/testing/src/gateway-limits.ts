/**
 * Gateway settings for stacks whose documents are not a client's: the per-minute budgets off
 * (their report in `extensions.cost` would follow the data), and for whole-schema documents the
 * size limits lifted too. The limits and budgets have tests of their own.
 */

/** Every per-minute budget off: requests, cost points per user and per organization. */
export const NO_BUDGETS = {
  RATE_LIMIT_PER_MINUTE: '0',
  COST_BUDGET_PER_MINUTE: '0',
  COST_BUDGET_ORGANIZATION_PER_MINUTE: '0',
} as const;

/** Room for a selection of every field of a type, two object levels deep, with no budget. */
export const WHOLE_SCHEMA_LIMITS = {
  MAX_TOKENS: '100000',
  MAX_COST: '100000000',
  MAX_DEPTH: '40',
  MAX_ALIASES: '1000',
  ...NO_BUDGETS,
} as const;

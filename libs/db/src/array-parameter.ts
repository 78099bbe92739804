/**
 * An array bound as one parameter whose length PostgreSQL's planner cannot see.
 *
 * A named statement is planned with its values ("custom" plans) for its first five runs; then
 * PostgreSQL keeps a generic plan only if that plan costs no more than the custom ones did. The
 * generic plan guesses 10 elements for an array parameter, while a custom plan knows the length:
 * a batch smaller than 10 (the owners of a page of devices, the one report of a detail view)
 * always looked cheaper to plan afresh, so such a statement was planned on every call. On
 * fleet-core's devices page the owners lookup (a handful of owners, visibility subqueries to
 * plan) spent most of its PostgreSQL time planning (pg_stat_statements shows planning and
 * execution time apart).
 *
 * Read through a scalar subquery, the array is a run-time value for custom plans too: both plans
 * guess the same length and cost the same, so PostgreSQL keeps the generic one. The subquery is
 * evaluated once per statement (an InitPlan); `= any(...)` stays an index condition and
 * `unnest(...)` a function scan. Use it for the `?` of arrays in per-request reads: their plans
 * then never depend on the batch size (large batches already ran the generic plan, since their
 * custom plans cost more).
 */
export type ArrayElementType = 'uuid' | 'text' | 'int' | 'bigint' | 'float8' | 'timestamptz';

/** `cast((select ?::<type>[]) as <type>[])`: one knex placeholder, bound to the array. */
export function arrayParameter(type: ArrayElementType): string {
  return `cast((select ?::${type}[]) as ${type}[])`;
}

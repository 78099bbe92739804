/**
 * Plan tests: a statement keeps its plan on a table without statistics (autovacuum may be off,
 * or the table was just migrated). `assertNoStatistics` is the control, `explainNodes` the plan
 * (EXPLAIN, format json) as a flat list of nodes to assert on.
 */
import assert from 'node:assert/strict';
import type { Knex } from 'knex';

export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Alias?: string;
  /** With `analyze`: rows per loop (averaged) and loops, so rows read = (rows + removed) x loops. */
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

const flatten = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(flatten)];

/**
 * Every node of the statement's plan. Without `analyze` nothing runs; with it the statement runs
 * and each node carries its actual rows and loops (counts, never timings, are what to assert).
 */
export async function explainNodes(
  knex: Knex,
  sql: string,
  bindings: readonly unknown[],
  options: { analyze?: boolean } = {},
): Promise<PlanNode[]> {
  const explain = options.analyze ? 'explain (analyze, timing off, format json)' : 'explain (format json)';
  const explained = await knex.raw(`${explain} ${sql}`, bindings as Knex.RawBinding[]);
  return flatten(explained.rows[0]['QUERY PLAN'][0].Plan as PlanNode);
}

/**
 * Rows a relation's scans handled in an analyzed plan (`explainNodes(..., { analyze: true })`):
 * rows returned plus rows removed by a filter, times loops. What a scaling test bounds: it counts
 * rows touched, never time.
 */
export function rowsRead(nodes: readonly PlanNode[], relation: string): number {
  return nodes
    .filter((node) => node['Relation Name'] === relation)
    .reduce(
      (sum, n) =>
        sum + ((n['Actual Rows'] ?? 0) + (n['Rows Removed by Filter'] ?? 0)) * (n['Actual Loops'] ?? 0),
      0,
    );
}

/** Fails unless the table has never been analyzed (so the plan under test is a stats-less one). */
export async function assertNoStatistics(knex: Knex, schema: string, table: string): Promise<void> {
  const { rows } = await knex.raw(
    'select last_analyze, last_autoanalyze from pg_stat_user_tables where schemaname = ? and relname = ?',
    [schema, table],
  );
  assert.equal(rows.length, 1, `control: ${schema}.${table} exists`);
  assert.equal(rows[0].last_analyze, null, `control: ${schema}.${table} has no statistics`);
  assert.equal(rows[0].last_autoanalyze, null, `control: ${schema}.${table} has no statistics`);
}

/**
 * Resolves once one backend of the current database waits on a lock. Polls the server (no timer,
 * no wall clock); fails after `attempts` polls.
 */
async function untilOneBackendWaitsOnALock(knex: Knex, attempts = 10_000): Promise<void> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    const { rows } = await knex.raw(
      `select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'`,
    );
    if (rows[0].n === 1) return;
  }
  assert.fail('no backend waited on a lock');
}

/**
 * Two writers at once, for tests of concurrent writes that meet on one row (a trigger merging
 * into a summary): `first` runs in a transaction that keeps its locks, `second` starts in another
 * and must block on them, then the first commits and the second finishes and commits. Both are
 * rolled back if anything fails.
 */
export async function commitWhileSecondWaits(
  knex: Knex,
  first: (trx: Knex.Transaction) => Promise<unknown>,
  second: (trx: Knex.Transaction) => Promise<unknown>,
): Promise<void> {
  const trxA = await knex.transaction();
  const trxB = await knex.transaction();
  try {
    await first(trxA);
    const waiting = second(trxB).then(() => undefined);
    await untilOneBackendWaitsOnALock(knex);
    await trxA.commit();
    await waiting;
    await trxB.commit();
  } finally {
    if (!trxA.isCompleted()) await trxA.rollback();
    if (!trxB.isCompleted()) await trxB.rollback();
  }
}

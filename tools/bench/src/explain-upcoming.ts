/**
 * Plans of maintenance's upcoming-work statements on a kept benchmark database
 * (`BENCH_KEEP=1 npx tsx tools/bench/src/maintenance.ts`, then BENCH_REUSE_URL=<its url>):
 * EXPLAIN ANALYZE of the kept-work statements of one `maintenanceUpcomings` request, as the
 * whole-fleet manager (index walks; EXPLAIN_UID for another account, EXPLAIN_ARGS for the
 * arguments, EXPLAIN_SQL=1 prints the statements), with the settings the walk runs under.
 */
import { createKnex } from '@fleetgraph/db';
import { CursorCodec } from '@fleetgraph/paging';
import { ListScopeCache } from '@fleetgraph/visibility';
import { createReader, resolvers } from '@fleetgraph/maintenance';

const url = process.env.BENCH_REUSE_URL!;
const knex = createKnex({ url });
const seen: Array<{ sql: string; bindings: unknown[] }> = [];
knex.on('query', (q: { sql: string; bindings: unknown[] }) => seen.push(q));
const user = (uid: string) => ({ uid, email: 'x', fullName: 'x', scopes: [], jti: 'j', exp: 0 }) as never;
const reader = createReader(
  {
    knex,
    codec: new CursorCodec('explain-secret-0123456789abcdef'),
    clock: () => new Date('2026-11-20T00:00:00Z'),
    listScopes: new ListScopeCache(),
  },
  user(process.env.EXPLAIN_UID ?? '0d000000-0000-4000-8000-000000000004'),
);
await knex.raw('set jit = off');
const args = JSON.parse(process.env.EXPLAIN_ARGS ?? '{"pageSize":50}');
const t0 = performance.now();
const page = await (resolvers as any).Query.maintenanceUpcomings(null, args, { reader });
console.log(`answer in ${(performance.now() - t0).toFixed(1)} ms, ${page.list.length} items`);
const connection = await knex.client.acquireConnection();
await connection.query('set jit = off; set enable_bitmapscan = off; set enable_sort = off');
for (const q of seen) {
  if (!/upcoming_work/.test(q.sql)) continue;
  if (process.env.EXPLAIN_SQL) console.log(q.sql, JSON.stringify(q.bindings));
  const { rows } = await connection.query(`explain (analyze, costs off) ${q.sql}`, q.bindings);
  console.log(rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n'));
}
await knex.client.releaseConnection(connection);
await knex.destroy();

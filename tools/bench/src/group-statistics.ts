/**
 * Group statistics and group pages on a large seeded fleet: the first page of `groups` (50) with
 * mobility's `mobilityTransactionStatistics` (default range: the 12 months before now, MONTH) and
 * `mobilityTransactions(pageSize: 5)`, alone and together, against the bare page, through the
 * gateway, as the demo account, one client.
 *
 *   BENCH_SCALE_DATABASE_URL=postgres://.../<seeded db> npx tsx tools/bench/src/group-statistics.ts
 *
 * BENCH_N requests per query (default 10) after 2 unmeasured. Results go to
 * tools/bench/results/<date>-group-statistics.md.
 */
import { performance } from 'node:perf_hooks';
import { postGraphQL } from '@fleetgraph/testing';
import { startScalePlatform } from './harness';
import { writeResult } from './results';

const N = Number(process.env.BENCH_N ?? 10);
const WARMUP = 2;
const STATISTICS = `mobilityTransactionStatistics { periodStart periodEnd productCategory energyType quantityUnit currency
  transactionCount quantity netTotal grossTotal averageNetUnitPrice averageGrossUnitPrice anomaliesCount distanceKm consumptionPer100Km }`;
const TRANSACTIONS = `mobilityTransactions(pageSize: 5) { next list { id transactedAt quantity quantityUnit productCategory
  energyType grossTotal currency stationCity } }`;
const QUERIES: Array<[string, string]> = [
  ['groups (bare page)', `{ groups(pageSize: 50) { list { id label } } }`],
  ['groups + mobilityTransactionStatistics', `{ groups(pageSize: 50) { list { id ${STATISTICS} } } }`],
  [
    'groups + mobilityTransactionStatistics without distance',
    `{ groups(pageSize: 50) { list { id ${STATISTICS.replace(/ distanceKm consumptionPer100Km/, '')} } } }`,
  ],
  ['groups + mobilityTransactions(pageSize: 5)', `{ groups(pageSize: 50) { list { id ${TRANSACTIONS} } } }`],
  ['groups + both', `{ groups(pageSize: 50) { list { id ${STATISTICS} ${TRANSACTIONS} } } }`],
];

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function main() {
  const url = process.env.BENCH_SCALE_DATABASE_URL;
  if (!url) throw new Error('BENCH_SCALE_DATABASE_URL names a seeded database (npm run seed -- --scale N)');
  const { platform, token, close } = await startScalePlatform(url);
  try {
    const graphql = platform.urls.graphql;
    const off = await postGraphQL(graphql, '{ cache(scope: NONE) { ttl } }', { token });
    if (off.errors) throw new Error(JSON.stringify(off.errors));
    const rows: string[] = [];
    for (const [name, document] of QUERIES) {
      const times: number[] = [];
      for (let i = 0; i < WARMUP + N; i++) {
        const start = performance.now();
        const res = await postGraphQL(graphql, document, { token });
        // A cold first answer may pass the subgraphs' 5 s statement timeout: only measured ones count.
        if (res.errors && i >= WARMUP)
          throw new Error(`${name}: ${JSON.stringify(res.errors).slice(0, 500)}`);
        if (i >= WARMUP) times.push(performance.now() - start);
      }
      times.sort((a, b) => a - b);
      const [p50, p95, max] = [percentile(times, 50), percentile(times, 95), times.at(-1)!];
      console.log(
        `${name.padEnd(45)} p50 ${p50.toFixed(1)} ms  p95 ${p95.toFixed(1)} ms  max ${max.toFixed(1)} ms`,
      );
      rows.push(`| ${name} | ${p50.toFixed(1)} | ${p95.toFixed(1)} | ${max.toFixed(1)} |`);
    }
    const body = [
      `Database: BENCH_SCALE_DATABASE_URL (a seeded \`--scale\` database); ${N} requests per query after ${WARMUP} unmeasured, ` +
        'one client, through the gateway, as the demo account. Statistics: every field of a row, default arguments; ' +
        `transactions: \`${TRANSACTIONS.replace(/\s+/g, ' ')}\`.`,
      '',
      '| query | p50 ms | p95 ms | max ms |',
      '| --- | ---: | ---: | ---: |',
      ...rows,
    ].join('\n');
    const env = process.env.BENCH_N ? `BENCH_N=${process.env.BENCH_N} ` : '';
    const file = writeResult(
      'group-statistics',
      `BENCH_SCALE_DATABASE_URL=<seeded db> ${env}npx tsx tools/bench/src/group-statistics.ts`,
      body,
    );
    console.log(`results: ${file}`);
  } finally {
    await close();
  }
}

await main();

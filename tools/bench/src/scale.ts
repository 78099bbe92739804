/**
 * Scale benchmark: every root list of the graph on a large seeded fleet, through the gateway, as
 * the demo account (the whole demo organization), one client.
 *
 *   npm run seed -- --scale 1334            (once; DATABASE_URL names the database)
 *   BENCH_SCALE_DATABASE_URL=postgres://.../<db> npx tsx tools/bench/src/scale.ts
 *
 * Without BENCH_SCALE_DATABASE_URL it runs on a throwaway database with the scale-1 demo data (a
 * smoke run). The roots are discovered from the gateway's schema (introspection), not listed:
 * every root field with no required argument (a page: its first page of BENCH_PAGE, 50; an
 * object: the object), a selection two object levels deep generated from the schema: every field
 * without a required argument, nested pages of BENCH_NESTED_PAGE (5), leaves only at the second
 * level (a page's elements are its first level); `count` only with BENCH_COUNT=1 (it counts the whole visible set, not a page). Each root
 * runs BENCH_N times (default 10, after 2 unmeasured runs): p50/p95 per root and the ten slowest
 * single answers. Then the Vehicle-extension page (fields other subgraphs add to Vehicle) against
 * the bare vehicle page, as a ratio of p50s. Results go to tools/bench/results/<date>-scale.md.
 */
import { performance } from 'node:perf_hooks';
import {
  buildClientSchema,
  getIntrospectionQuery,
  getNamedType,
  isObjectType,
  type IntrospectionQuery,
} from 'graphql';
import { postGraphQL, WHOLE_SCHEMA_LIMITS } from '@fleetgraph/testing';
import { startBenchPlatform, startScalePlatform } from './harness';
import { argsOf, isPaged, pageSelection, requiredArgs, selection } from './selection';
import { writeResult } from './results';

const N = Number(process.env.BENCH_N ?? 10);
const WARMUP = 2;
const PAGE = Number(process.env.BENCH_PAGE ?? 50);
const NESTED_PAGE = Number(process.env.BENCH_NESTED_PAGE ?? 5);
const COUNT = process.env.BENCH_COUNT === '1';
const ONLY = process.env.BENCH_ONLY?.split(',');
const EXTENSION_N = Number(process.env.BENCH_EXTENSION_N ?? 30);

const EXTENSION_PAGE = `{ account { vehicles(pageSize: 20) { list { plate dvirSafeToDrive openDefects { count }
  lastInspectionReport { completedAt }
  maintenanceUpcoming(pageSize: 3) { list { remainingDistanceToDrive dateDeadline } } } } } }`;
const BARE_PAGE = `{ account { vehicles(pageSize: 20) { list { plate } } } }`;

const SELECTION = { nestedPage: NESTED_PAGE, count: COUNT };

/**
 * A root whose arguments are each optional but only valid together (geodecode's `lat` and `lng`)
 * is refused with the argument named: reported as such, not as a failure of the root.
 */
function describeError(errors: NonNullable<Awaited<ReturnType<typeof postGraphQL>>['errors']>): string {
  const first = errors[0]?.extensions;
  if (first?.code === 'BAD_USER_INPUT' && typeof first.argumentName === 'string')
    return `not run: needs argument ${first.argumentName}`;
  return JSON.stringify(errors).slice(0, 300);
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function main() {
  const scaleUrl = process.env.BENCH_SCALE_DATABASE_URL;
  let close: () => Promise<void>;
  let graphql: string;
  let token: string;
  if (scaleUrl) {
    const scaled = await startScalePlatform(scaleUrl);
    graphql = scaled.platform.urls.graphql;
    token = scaled.token;
    close = () => scaled.close();
  } else {
    const bench = await startBenchPlatform(WHOLE_SCHEMA_LIMITS);
    graphql = bench.platform.urls.graphql;
    token = bench.token;
    close = () => bench.close();
  }
  try {
    const introspection = await postGraphQL(graphql, getIntrospectionQuery(), { token });
    if (introspection.errors) throw new Error(JSON.stringify(introspection.errors));
    const schema = buildClientSchema(introspection.data as unknown as IntrospectionQuery);
    // Every root needing no argument: pages (first page), objects (two levels deep) and leaves;
    // but `cache`, which turns the gateway's per-login response cache on: every answer is measured
    // uncached (it is turned off first, in case an earlier run left it on).
    const off = await postGraphQL(graphql, '{ cache(scope: NONE) { ttl } }', { token });
    if (off.errors) throw new Error(JSON.stringify(off.errors));
    const roots = Object.values(schema.getQueryType()!.getFields()).filter(
      (f) =>
        requiredArgs(f).length === 0 &&
        !f.name.startsWith('_') &&
        f.name !== 'cache' &&
        (!ONLY || ONLY.includes(f.name)),
    );
    const skipped = Object.values(schema.getQueryType()!.getFields())
      .filter((f) => !roots.includes(f))
      .map((f) => f.name);
    console.log(`${roots.length} roots; needing arguments: ${skipped.join(', ')}`);

    const rows: Array<{ name: string; p50: number; p95: number; max: number; error?: string }> = [];
    const singles: Array<{ name: string; ms: number }> = [];
    for (const root of roots) {
      const type = getNamedType(root.type);
      const document = isPaged(type)
        ? `{ ${root.name}${argsOf(root, PAGE)} { ${pageSelection(type, 1, SELECTION)} } }`
        : isObjectType(type)
          ? `{ ${root.name} { ${selection(type, 1, SELECTION)} } }`
          : `{ ${root.name} }`;
      const times: number[] = [];
      let error: string | undefined;
      for (let i = 0; i < WARMUP + N && !error; i++) {
        const start = performance.now();
        const res = await postGraphQL(graphql, document, { token });
        const ms = performance.now() - start;
        if (res.errors) error = describeError(res.errors);
        else if (i >= WARMUP) {
          times.push(ms);
          singles.push({ name: root.name, ms });
        }
      }
      times.sort((a, b) => a - b);
      const row = error
        ? { name: root.name, p50: NaN, p95: NaN, max: NaN, error }
        : { name: root.name, p50: percentile(times, 50), p95: percentile(times, 95), max: times.at(-1)! };
      rows.push(row);
      console.log(
        `${root.name.padEnd(40)} ${error ? `ERROR ${error}` : `p50 ${row.p50.toFixed(1).padStart(8)} ms  p95 ${row.p95.toFixed(1).padStart(8)} ms  max ${row.max.toFixed(1).padStart(8)} ms`}`,
      );
    }
    singles.sort((a, b) => b.ms - a.ms);
    const slowest = singles.slice(0, 10);
    console.log('slowest ten answers:');
    for (const s of slowest) console.log(`  ${s.name.padEnd(40)} ${s.ms.toFixed(1)} ms`);

    const pageStats = async (document: string) => {
      const times: number[] = [];
      for (let i = 0; i < WARMUP + EXTENSION_N; i++) {
        const start = performance.now();
        const res = await postGraphQL(graphql, document, { token });
        if (res.errors) throw new Error(JSON.stringify(res.errors));
        if (i >= WARMUP) times.push(performance.now() - start);
      }
      times.sort((a, b) => a - b);
      return { p50: percentile(times, 50), p95: percentile(times, 95) };
    };
    const bare = await pageStats(BARE_PAGE);
    const extended = await pageStats(EXTENSION_PAGE);
    const ratio = extended.p50 / bare.p50;
    console.log(
      `Vehicle extensions, 20 vehicles: p50 ${extended.p50.toFixed(1)} ms (p95 ${extended.p95.toFixed(1)}) against ` +
        `plate only ${bare.p50.toFixed(1)} ms (p95 ${bare.p95.toFixed(1)}): ${ratio.toFixed(2)}x`,
    );

    const fmt = (v: number) => (Number.isNaN(v) ? '' : v.toFixed(1));
    const body = [
      `Database: ${scaleUrl ? 'BENCH_SCALE_DATABASE_URL (a seeded `--scale` database)' : 'throwaway, scale-1 demo data'}; ` +
        `${roots.length} roots without required arguments, first page ${PAGE}, nested pages ${NESTED_PAGE}, count ${COUNT ? 'selected' : 'not selected'}; ` +
        `${N} requests per root after ${WARMUP} unmeasured, one client, through the gateway, as the demo account.`,
      '',
      '| root | p50 ms | p95 ms | max ms | error |',
      '| --- | ---: | ---: | ---: | --- |',
      ...rows.map((r) => `| ${r.name} | ${fmt(r.p50)} | ${fmt(r.p95)} | ${fmt(r.max)} | ${r.error ?? ''} |`),
      '',
      'Slowest ten answers:',
      '',
      ...slowest.map((s) => `- ${s.name}: ${s.ms.toFixed(1)} ms`),
      '',
      `Vehicle extensions (${EXTENSION_N} requests each): \`${EXTENSION_PAGE.replace(/\s+/g, ' ')}\` p50 ${extended.p50.toFixed(1)} ms, ` +
        `p95 ${extended.p95.toFixed(1)} ms; \`${BARE_PAGE}\` p50 ${bare.p50.toFixed(1)} ms, p95 ${bare.p95.toFixed(1)} ms; ratio of p50s **${ratio.toFixed(2)}x**.`,
    ].join('\n');
    const env = Object.entries(process.env)
      .filter(([k]) => k.startsWith('BENCH_') && k !== 'BENCH_SCALE_DATABASE_URL')
      .map(([k, v]) => `${k}=${v} `)
      .join('');
    const file = writeResult(
      'scale',
      `${scaleUrl ? 'BENCH_SCALE_DATABASE_URL=<seeded db> ' : ''}${env}npx tsx tools/bench/src/scale.ts`,
      body,
    );
    console.log(`results: ${file}`);
  } finally {
    await close();
  }
}

await main();

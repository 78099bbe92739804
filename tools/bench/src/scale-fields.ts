/**
 * Where a root list's time goes on a large seeded fleet: for each root of BENCH_ROOTS (default
 * `accounts,groups`), its first page (BENCH_PAGE, 50) with every field selected as scale.ts selects
 * it (two object levels, nested pages of BENCH_NESTED_PAGE, 5), with leaves only, and with the
 * leaves plus each other field alone; p50 and min of BENCH_N requests (default 7, after 2
 * unmeasured), one client, through the gateway, as the demo account. Printed only (a bisection aid
 * for scale.ts's slow roots; figures worth keeping go to tools/bench/results/ by hand).
 *
 *   BENCH_SCALE_DATABASE_URL=postgres://.../<db> npx tsx tools/bench/src/scale-fields.ts
 */
import { performance } from 'node:perf_hooks';
import {
  buildClientSchema,
  getIntrospectionQuery,
  getNamedType,
  type GraphQLObjectType,
  type IntrospectionQuery,
} from 'graphql';
import { postGraphQL } from '@fleetgraph/testing';
import { startScalePlatform } from './harness';
import { argsOf, isLeaf, isPaged, requiredArgs, selection } from './selection';

const N = Number(process.env.BENCH_N ?? 7);
const WARMUP = 2;
const PAGE = Number(process.env.BENCH_PAGE ?? 50);
const NESTED_PAGE = Number(process.env.BENCH_NESTED_PAGE ?? 5);
const ROOTS = (process.env.BENCH_ROOTS ?? 'accounts,groups').split(',');

async function main() {
  const url = process.env.BENCH_SCALE_DATABASE_URL;
  if (!url) throw new Error('BENCH_SCALE_DATABASE_URL names a seeded `--scale` database');
  const { platform, token, close } = await startScalePlatform(url);
  try {
    const graphql = platform.urls.graphql;
    const off = await postGraphQL(graphql, '{ cache(scope: NONE) { ttl } }', { token });
    if (off.errors) throw new Error(JSON.stringify(off.errors));
    const introspection = await postGraphQL(graphql, getIntrospectionQuery(), { token });
    if (introspection.errors) throw new Error(JSON.stringify(introspection.errors));
    const schema = buildClientSchema(introspection.data as unknown as IntrospectionQuery);
    for (const name of ROOTS) {
      const root = schema.getQueryType()!.getFields()[name];
      const paged = root && getNamedType(root.type);
      if (!isPaged(paged)) throw new Error(`${name} is not a paged root list`);
      const element = getNamedType(paged.getFields().list!.type) as GraphQLObjectType;
      const document = (only?: string | null) =>
        `{ ${name}${argsOf(root!, PAGE)} { next list { ${selection(element, 1, { nestedPage: NESTED_PAGE, only })} } } }`;
      const variants: Array<[string, string]> = [
        [`${name} (every field)`, document()],
        [`${name} (leaves)`, document(null)],
        ...Object.values(element.getFields())
          .filter((field) => !isLeaf(field) && requiredArgs(field).length === 0)
          .map((field): [string, string] => [`${name}.${field.name}`, document(field.name)]),
      ];
      for (const [label, text] of variants) {
        const times: number[] = [];
        let error: string | undefined;
        for (let i = 0; i < WARMUP + N && !error; i++) {
          const start = performance.now();
          const res = await postGraphQL(graphql, text, { token });
          const ms = performance.now() - start;
          if (res.errors) error = JSON.stringify(res.errors).slice(0, 200);
          else if (i >= WARMUP) times.push(ms);
        }
        times.sort((a, b) => a - b);
        const p50 = times[Math.ceil(times.length / 2) - 1];
        console.log(
          `${label.padEnd(48)} ${error ? `ERROR ${error}` : `p50 ${p50!.toFixed(1).padStart(8)} ms  min ${times[0]!.toFixed(1).padStart(8)} ms`}`,
        );
      }
    }
  } finally {
    await close();
  }
}

await main();

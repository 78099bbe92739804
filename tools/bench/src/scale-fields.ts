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
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  buildClientSchema,
  getIntrospectionQuery,
  getNamedType,
  isEnumType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLField,
  type GraphQLObjectType,
  type IntrospectionQuery,
} from 'graphql';
import { startPlatform } from '@fleetgraph/start';
import { loadSubgraphManifests } from '@fleetgraph/subgraphs';
import { freePort, postGraphQL } from '@fleetgraph/testing';
import { login } from './load';

type AnyField = GraphQLField<unknown, unknown>;

const N = Number(process.env.BENCH_N ?? 7);
const WARMUP = 2;
const PAGE = Number(process.env.BENCH_PAGE ?? 50);
const NESTED_PAGE = Number(process.env.BENCH_NESTED_PAGE ?? 5);
const ROOTS = (process.env.BENCH_ROOTS ?? 'accounts,groups').split(',');

/** As scale.ts: client limits lifted for whole-type selections. */
const LIMITS = {
  MAX_TOKENS: '100000',
  MAX_COST: '100000000',
  MAX_DEPTH: '40',
  MAX_ALIASES: '1000',
  RATE_LIMIT_PER_MINUTE: '0',
  COST_BUDGET_PER_MINUTE: '0',
  COST_BUDGET_ORGANIZATION_PER_MINUTE: '0',
};

const requiredArgs = (field: AnyField) =>
  field.args.filter((arg) => isNonNullType(arg.type) && arg.defaultValue === undefined);
const isLeaf = (field: AnyField) => {
  const type = getNamedType(field.type);
  return isScalarType(type) || isEnumType(type);
};
const isPaged = (type: unknown): type is GraphQLObjectType =>
  isObjectType(type) && type.name.endsWith('Paged') && Boolean(type.getFields().list);
const argsOf = (field: AnyField, pageSize: number) =>
  field.args.some((a) => a.name === 'pageSize') ? `(pageSize: ${pageSize})` : '';

/**
 * scale.ts's selection of `type` at `level`; at level 1, `only` keeps the leaves and the one
 * non-leaf field it names (all of them when undefined, none when null).
 */
function selection(type: unknown, level: number, only?: string | null): string {
  if (!isObjectType(type)) return '__typename';
  const parts: string[] = [];
  for (const field of Object.values(type.getFields())) {
    if (requiredArgs(field).length > 0) continue;
    if (isLeaf(field)) {
      parts.push(field.name);
      continue;
    }
    if (level >= 2 || (only !== undefined && field.name !== only)) continue;
    const target = getNamedType(field.type);
    const args = argsOf(field, NESTED_PAGE);
    if (isPaged(target)) {
      const element = getNamedType(target.getFields().list!.type);
      parts.push(`${field.name}${args} { next list { ${selection(element, level + 1)} } }`);
    } else parts.push(`${field.name}${args} { ${selection(target, level + 1)} }`);
  }
  return parts.length > 0 ? parts.join(' ') : '__typename';
}

async function main() {
  const url = process.env.BENCH_SCALE_DATABASE_URL;
  if (!url) throw new Error('BENCH_SCALE_DATABASE_URL names a seeded `--scale` database');
  // The same data directory as scale.ts for this database (the SSO's sealed keys live there).
  const dir = join(tmpdir(), `fleetgraph-scale-${createHash('sha1').update(url).digest('hex').slice(0, 12)}`);
  mkdirSync(dir, { recursive: true });
  const ports: Record<string, number> = {};
  for (const name of ['gateway', 'sso', ...(await loadSubgraphManifests()).map((s) => s.name)])
    ports[name] = await freePort();
  const platform = await startPlatform({
    env: { DATABASE_URL: url, LOG_LEVEL: 'silent', ...LIMITS },
    dataDir: dir,
    ports,
    seed: false,
  });
  try {
    const graphql = platform.urls.graphql;
    const token = await login(platform.urls.sso);
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
        `{ ${name}${argsOf(root!, PAGE)} { next list { ${selection(element, 1, only)} } } }`;
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
    await platform.close();
  }
}

await main();

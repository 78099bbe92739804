/**
 * The one declaration a subgraph exports (`apps/<name>/src/manifest.ts`, default export).
 *
 * Everything that needs to know the subgraphs reads these manifests: composition (tools/compose),
 * `npm start` (one process or one per service), the e2e stack, the seed orchestrator, benchmarks,
 * the gateway's test stubs and the README/docker-compose checks. Nothing lists subgraphs by hand:
 * a folder under apps/ whose project.json carries the Nx tag `type:subgraph` is a subgraph.
 *
 * A manifest must stay cheap to import: it names the app factory lazily (`buildApp` imports
 * `./app` when called) so that composition does not load a subgraph's runtime.
 */
import type { FastifyInstance } from 'fastify';
import type { Knex, Migrations } from '@fleetgraph/db';
import type { SubgraphBuildOptions } from './app';
import type { SubgraphConfig } from './config';

export type Env = Record<string, string | undefined>;

/** What the seed orchestrator hands a subgraph's demo-data hook. */
export interface DemoDataContext {
  /** progress and summary lines (stderr of `npm start` / `npm run seed`) */
  log(line: string): void;
  /** draw a progress bar (interactive terminal) */
  progress: boolean;
  /** The instant the demo is built around ("today"); injected so tests are independent of the clock. */
  now: Date;
  /** Scale factor of `npm run seed -- --scale N` (1 = the demo). */
  scale: number;
}

/** A sign-in the SSO should have for a demo account (the orchestrator creates it; subgraphs never write the SSO). */
export interface DemoLogin {
  /** the account id (= SSO uid) */
  uid: string;
  email: string;
  password: string;
  fullName: string;
  /** ISO 639-1 code of the login's language (default en) */
  language?: string;
}

/** What a demo-data hook may hand back to the orchestrator. */
export interface DemoSeedResult {
  /** SSO logins to create for the accounts this hook wrote. */
  logins?: DemoLogin[];
  /** Row counts by table, for the summary line. */
  counts?: Record<string, number>;
}

export interface DemoData {
  /** True when this subgraph's demo rows are already there (the hook then does nothing). */
  isSeeded(knex: Knex): Promise<boolean>;
  /** Writes this subgraph's demo rows (its own schema only), consistent with what dependencies seeded. */
  seed(knex: Knex, context: DemoDataContext): Promise<DemoSeedResult | void>;
}

/**
 * A small dataset with known answers that other subgraphs' tests may load through the manifest
 * (never by importing the app): fleet-core's gives organizations, accounts, groups, vehicles,
 * devices, drivers and trips. `facts` names the ids the dataset contains.
 */
export interface TestFixture<F = unknown> {
  load(knex: Knex): Promise<void>;
  facts: F;
}

/** What an importer answers: a summary of what was written, or every problem and nothing written. */
export type ImportOutcome =
  { ok: true; summary: Record<string, number>; logins?: DemoLogin[] } | { ok: false; problems: string[] };

/**
 * One kind of file `npm run import -- <subgraph> <kind> <file> [--key=value...]` accepts
 * (e.g. `mobility transactions statement.csv --format=csv`). It validates the whole file first,
 * lists every problem by JSON path or line and column, and writes nothing if there is one.
 */
export interface DataImporter {
  /** One line for `npm run import -- --help`. */
  description: string;
  run(
    knex: Knex,
    file: string,
    context: { log(line: string): void; now: Date; options: Record<string, string> },
  ): Promise<ImportOutcome>;
}

export interface SubgraphManifest<C extends SubgraphConfig = SubgraphConfig, F = unknown> {
  /** Name in the supergraph, in `SUBGRAPH_<NAME>_URL` and in logs (lower-case, dashes). */
  name: string;
  /** Default port (`<ENV_PREFIX>_PORT` overrides it). */
  port: number;
  /** Prefix of this subgraph's own environment variables (upper-case, underscores). */
  envPrefix: string;
  /** PostgreSQL schema the subgraph owns, and its migrations. */
  dbSchema: string;
  migrations: Migrations;
  /** Folder of the subgraph's `*.graphql` files. */
  schemaDir: string;
  /**
   * Subgraphs whose schema (and demo data) must exist before this one's: a subgraph reading
   * fleet-core's published contract depends on `fleet-core`.
   */
  dependsOn?: string[];
  /**
   * Schemas of the read-only contracts this subgraph publishes (owned by it, like dbSchema):
   * the subgraphs that depend on it may read them, and nothing else of it. Each app connects as
   * its own database role (libs/db roles.ts), so PostgreSQL itself enforces that.
   */
  contracts?: string[];
  /**
   * Secrets of this subgraph alone, by environment variable (`<ENV_PREFIX>_...`), with what each
   * protects. `npm start` generates each once (its development secrets) and gives it to this
   * subgraph only; a deployment sets them in the environment.
   */
  secrets?: Record<string, string>;
  /** Validates the environment (every problem listed) and returns the typed config. */
  loadConfig(env: Env): C;
  /** The Fastify app; tests call it with a throwaway database and a test key set. */
  buildApp(config: C & { databaseUrl: string }, options?: SubgraphBuildOptions): Promise<FastifyInstance>;
  /** Demo rows written on the first `npm start` and by `npm run seed`. */
  demoData?: DemoData;
  /** File importers by kind, for `npm run import`. */
  importers?: Record<string, DataImporter>;
  /** Known small dataset for other subgraphs' tests (see TestFixture). */
  testFixture?: () => Promise<TestFixture<F>>;
}

const NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
const PREFIX = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/;

/** Declares a subgraph; refuses a manifest whose name, prefix or port cannot work. */
export function defineSubgraph<C extends SubgraphConfig, F = unknown>(
  manifest: SubgraphManifest<C, F>,
): SubgraphManifest<C, F> {
  const problems: string[] = [];
  if (!NAME.test(manifest.name))
    problems.push(`name "${manifest.name}" must be lower-case words joined by dashes`);
  if (!PREFIX.test(manifest.envPrefix))
    problems.push(`envPrefix "${manifest.envPrefix}" must be upper-case words joined by underscores`);
  if (!Number.isInteger(manifest.port) || manifest.port < 1024 || manifest.port > 65535)
    problems.push(`port ${manifest.port} must be an integer between 1024 and 65535`);
  if (!/^[a-z_][a-z0-9_]*$/.test(manifest.dbSchema))
    problems.push(`dbSchema "${manifest.dbSchema}" must be a lower-case SQL identifier`);
  for (const schema of manifest.contracts ?? [])
    if (!/^[a-z_][a-z0-9_]*$/.test(schema))
      problems.push(`contract schema "${schema}" must be a lower-case SQL identifier`);
  for (const variable of Object.keys(manifest.secrets ?? {}))
    if (!variable.startsWith(`${manifest.envPrefix}_`))
      problems.push(
        `secret ${variable} must be one of the subgraph's own variables (${manifest.envPrefix}_...)`,
      );
  if (problems.length > 0) throw new Error(`subgraph manifest: ${problems.join('; ')}`);
  return manifest;
}

/** The environment variable holding a subgraph's URL at the gateway: SUBGRAPH_FLEET_CORE_URL. */
export const subgraphUrlVariable = (name: string) => `SUBGRAPH_${name.toUpperCase().replace(/-/g, '_')}_URL`;

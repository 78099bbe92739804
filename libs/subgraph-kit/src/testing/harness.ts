/**
 * The test harness every subgraph shares: its app on a throwaway database, the schemas of the
 * subgraphs it depends on migrated and their test fixtures loaded (through their manifests, never
 * by importing them), a test token issuer, and a statement counter.
 *
 *   const h = await startSubgraphHarness(manifest, { label: 'dvir-reports' });
 *   const res = await h.as(h.facts['fleet-core'].alice)(`{ inspectionReports { count } }`);
 */
import type { FastifyInstance } from 'fastify';
import { createKnex, createTestDatabase, migrateSchema, type Knex } from '@fleetgraph/db';
import {
  createStatementCounter,
  createTestIssuer,
  injectGraphQL,
  type GraphQLResponse,
  type TestIssuer,
  type TestUser,
} from '@fleetgraph/testing';
import type { SubgraphBuildOptions } from '../app';
import type { Env, SubgraphManifest } from '../manifest';
import { dependencyManifest } from '../dependency-manifest';

export interface SubgraphHarness {
  app: FastifyInstance;
  issuer: TestIssuer;
  /** Every SQL statement the app ran (tests assert batching with it). */
  statements: ReturnType<typeof createStatementCounter>;
  /** A connection to the test database, for rows a test adds or reads back. */
  knex: Knex;
  databaseUrl: string;
  /** The `facts` of each dependency's test fixture, by subgraph name. */
  facts: Record<string, any>;
  /** A GraphQL client acting as `user` (token from the test issuer; `scope` defaults to public). */
  as(
    user: TestUser,
    options?: { scope?: string },
  ): (query: string, variables?: Record<string, unknown>) => Promise<GraphQLResponse<any>>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  label?: string;
  /** Extra environment for the subgraph's config (LOG_LEVEL is silent unless given). */
  env?: Env;
  /** Extra build options (a log stream, migrate: false...). */
  build?: Omit<SubgraphBuildOptions, 'jwks' | 'onQuery'>;
  /** Load the dependencies' test fixtures (default true). */
  fixtures?: boolean;
  /** Rows of the subgraph's own, written after the app migrated its schema. */
  seed?(knex: Knex, facts: Record<string, any>): Promise<void>;
}

export async function startSubgraphHarness(
  manifest: SubgraphManifest<any>,
  options: HarnessOptions = {},
): Promise<SubgraphHarness> {
  const database = await createTestDatabase(options.label ?? manifest.name);
  const knex = createKnex({ url: database.url });
  const issuer = await createTestIssuer();
  const statements = createStatementCounter();
  let app: FastifyInstance | undefined;
  try {
    const facts = await prepareDependencies(knex, manifest, options.fixtures !== false);
    const config = manifest.loadConfig({ SSO_ISSUER: issuer.issuer, LOG_LEVEL: 'silent', ...options.env });
    app = await manifest.buildApp(
      { ...config, databaseUrl: database.url },
      { ...options.build, jwks: issuer.jwks, onQuery: statements.record },
    );
    await options.seed?.(knex, facts);
    const built = app;
    return {
      app: built,
      issuer,
      statements,
      knex,
      databaseUrl: database.url,
      facts,
      as:
        (user, tokenOptions = {}) =>
        async (query, variables) =>
          injectGraphQL(built, query, {
            token: await issuer.token(user, tokenOptions.scope ? { scope: tokenOptions.scope } : {}),
            variables: variables ?? {},
          }),
      async close() {
        await knex.destroy();
        await built.close();
        await database.drop();
      },
    };
  } catch (error) {
    await app?.close().catch(() => {});
    await knex.destroy().catch(() => {});
    await database.drop().catch(() => {});
    throw error;
  }
}

/** Migrates every (transitive) dependency and loads its fixture; returns the fixtures' facts. */
async function prepareDependencies(
  knex: Knex,
  manifest: SubgraphManifest<any>,
  loadFixtures: boolean,
): Promise<Record<string, any>> {
  const facts: Record<string, any> = {};
  const done = new Set<string>();
  const visit = async (name: string): Promise<void> => {
    if (done.has(name)) return;
    done.add(name);
    const dependency = await dependencyManifest(name);
    for (const next of dependency.dependsOn ?? []) await visit(next);
    await migrateSchema(knex, dependency.dbSchema, dependency.migrations);
    if (loadFixtures && dependency.testFixture) {
      const fixture = await dependency.testFixture();
      await fixture.load(knex);
      facts[name] = fixture.facts;
    }
  };
  for (const name of manifest.dependsOn ?? []) await visit(name);
  return facts;
}
export { assertProjectionKeepsAnswers, fieldsOf, type ProjectionCase } from './projection';

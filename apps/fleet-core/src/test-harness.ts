/** Boots fleet-core on a throwaway database with the fixture loaded, and a test token issuer. */
import type { FastifyInstance } from 'fastify';
import { createKnex, createTestDatabase, type Knex, type TestDatabase } from '@fleetgraph/db';
import {
  createStatementCounter,
  createTestIssuer,
  injectGraphQL,
  type GraphQLResponse,
  type TestIssuer,
  type TestUser,
} from '@fleetgraph/testing';
import { buildApp } from './app';
import { loadFleetCoreConfig } from './config';
import { loadFixture } from './testing/fixture';
import { loadServicesFixture } from './testing/services-fixture';

export interface Harness {
  app: FastifyInstance;
  issuer: TestIssuer;
  statements: ReturnType<typeof createStatementCounter>;
  /** A connection to the test database, for tests that add or change rows of their own. */
  knex: Knex;
  as(user: TestUser): (query: string, variables?: Record<string, unknown>) => Promise<GraphQLResponse<any>>;
  close(): Promise<void>;
}

export async function startHarness(label: string): Promise<Harness> {
  const database: TestDatabase = await createTestDatabase(label);
  const issuer = await createTestIssuer();
  const statements = createStatementCounter();
  const config = loadFleetCoreConfig({ SSO_ISSUER: issuer.issuer, LOG_LEVEL: 'silent' });
  const app = await buildApp(
    { ...config, databaseUrl: database.url },
    { jwks: issuer.jwks, onQuery: statements.record },
  );
  const knex = createKnex({ url: database.url });
  await loadFixture(knex);
  await loadServicesFixture(knex);
  return {
    app,
    issuer,
    statements,
    knex,
    as: (user) => async (query, variables) =>
      injectGraphQL(app, query, { token: await issuer.token(user), variables: variables ?? {} }),
    async close() {
      await knex.destroy();
      await app.close();
      await database.drop();
    },
  };
}

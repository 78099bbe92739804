/** Boots vehicle-data on a throwaway database (with a fleet-shaped fixture and the demo seed) and a test token issuer. */
import type { FastifyInstance } from 'fastify';
import { createKnex, createTestDatabase, type TestDatabase } from '@fleetgraph/db';
import {
  createTestIssuer,
  injectGraphQL,
  type GraphQLResponse,
  type TestIssuer,
  type TestUser,
} from '@fleetgraph/testing';
import { buildApp } from './app';
import { loadVehicleDataConfig } from './config';
import { loadFleetFixture } from './testing/fleet-fixture';

export interface Harness {
  app: FastifyInstance;
  issuer: TestIssuer;
  databaseUrl: string;
  as(user: TestUser): (query: string, variables?: Record<string, unknown>) => Promise<GraphQLResponse<any>>;
  close(): Promise<void>;
}

export async function startHarness(label: string): Promise<Harness> {
  const database: TestDatabase = await createTestDatabase(label);
  const issuer = await createTestIssuer();
  const knex = createKnex({ url: database.url });
  await loadFleetFixture(knex);
  await knex.destroy();
  const config = loadVehicleDataConfig({ SSO_ISSUER: issuer.issuer, LOG_LEVEL: 'silent' });
  const app = await buildApp({ ...config, databaseUrl: database.url }, { jwks: issuer.jwks, seed: true });
  return {
    app,
    issuer,
    databaseUrl: database.url,
    as: (user) => async (query, variables) =>
      injectGraphQL<any>(app, query, { token: await issuer.token(user), variables: variables ?? {} }),
    async close() {
      await app.close();
      await database.drop();
    },
  };
}

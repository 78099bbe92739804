/** Boots geodecode on a throwaway database (demo streets loaded at start) with a test token issuer. */
import type { FastifyInstance } from 'fastify';
import { createTestDatabase, type TestDatabase } from '@fleetgraph/db';
import {
  createTestIssuer,
  injectGraphQL,
  type GraphQLResponse,
  type TestIssuer,
  type TestUser,
} from '@fleetgraph/testing';
import { buildApp } from './app';
import { loadGeodecodeConfig } from './config';

export const VIEWER: TestUser = { uid: '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f', email: 'viewer@example.test' };

export const GEODECODE_FIELDS = `extent { minLat minLng maxLat maxLng centerLat centerLng }
  elements { kind country countryCode countryCodeAlpha3 state stateCode county city postalCode street houseNumber distance lat lng }`;

export interface Harness {
  app: FastifyInstance;
  issuer: TestIssuer;
  databaseUrl: string;
  /** Runs a query as VIEWER. */
  gql(query: string, variables?: Record<string, unknown>): Promise<GraphQLResponse<any>>;
  /** geodecode(args) with every field selected; args as GraphQL variables. */
  geodecode(args: Record<string, unknown>): Promise<GraphQLResponse<any>>;
  close(): Promise<void>;
}

export async function startHarness(label: string): Promise<Harness> {
  const database: TestDatabase = await createTestDatabase(label);
  const issuer = await createTestIssuer();
  const config = loadGeodecodeConfig({ SSO_ISSUER: issuer.issuer, LOG_LEVEL: 'silent' });
  const app = await buildApp({ ...config, databaseUrl: database.url }, { jwks: issuer.jwks });
  const gql: Harness['gql'] = async (query, variables) =>
    injectGraphQL(app, query, { token: await issuer.token(VIEWER), variables: variables ?? {} });
  return {
    app,
    issuer,
    databaseUrl: database.url,
    gql,
    geodecode: (args) =>
      gql(
        `query($lat: Float, $lng: Float, $radius: Int, $skip: Boolean, $max: Int, $lang: String, $code: String) {
          geodecode(lat: $lat, lng: $lng, radius: $radius, skipEmptyStreetname: $skip, maxResult: $max, lang: $lang, countryCode: $code) { ${GEODECODE_FIELDS} }
        }`,
        {
          lat: args.lat,
          lng: args.lng,
          radius: args.radius ?? 100,
          skip: args.skipEmptyStreetname,
          max: args.maxResult ?? 1,
          lang: args.lang ?? 'en',
          code: args.countryCode,
        },
      ),
    async close() {
      await app.close();
      await database.drop();
    },
  };
}

/**
 * geodecode's tests on the shared harness (startSubgraphHarness: throwaway database, test issuer,
 * statement counter). This file only adds what is geodecode's own: the VIEWER, a `geodecode(args)`
 * query helper, and the demo streets through the manifest's demoData hook for the tests that
 * read them (`{ demoStreets: true }`).
 */
import type { Knex } from '@fleetgraph/db';
import { startSubgraphHarness, type SubgraphHarness } from '@fleetgraph/subgraph-kit/testing';
import type { GraphQLResponse, TestUser } from '@fleetgraph/testing';
import manifest from '../manifest';

export const VIEWER: TestUser = { uid: '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f', email: 'viewer@example.test' };

export const GEODECODE_FIELDS = `extent { minLat minLng maxLat maxLng centerLat centerLng }
  elements { kind country countryCode countryCodeAlpha3 state stateCode county city postalCode street houseNumber distance lat lng }`;

/** The instant handed to the demo-data hook (the demo streets do not depend on it). */
export const TEST_NOW = new Date('2026-11-23T00:00:00Z');

/** The manifest's demo-data hook, as `npm start` and `npm run seed` run it. */
export async function seedDemoStreets(knex: Knex): Promise<void> {
  await manifest.demoData!.seed(knex, { log: () => {}, progress: false, now: TEST_NOW, scale: 1 });
}

export interface Harness extends SubgraphHarness {
  /** Runs a query as VIEWER. */
  gql(query: string, variables?: Record<string, unknown>): Promise<GraphQLResponse<any>>;
  /** geodecode(args) with every field selected; args as GraphQL variables. */
  geodecode(args: Record<string, unknown>): Promise<GraphQLResponse<any>>;
}

export async function startHarness(label: string, options: { demoStreets?: boolean } = {}): Promise<Harness> {
  const h = await startSubgraphHarness(manifest, {
    label,
    ...(options.demoStreets ? { seed: seedDemoStreets } : {}),
  });
  const gql: Harness['gql'] = (query, variables) => h.as(VIEWER)(query, variables);
  return Object.assign(h, {
    gql,
    geodecode: (args: Record<string, unknown>) =>
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
  });
}

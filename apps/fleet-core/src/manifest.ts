/**
 * fleet-core's manifest: accounts, groups, devices, vehicles, drivers, trips and the services
 * domains. It owns the `fleet` schema and publishes the read-only `fleet_contract` views that
 * other subgraphs read (migrations/20261123_006_contract_v1.ts).
 */
import { defineSubgraph } from '@fleetgraph/subgraph-kit';
import { FLEET_SCHEMA, migrations } from '../migrations/index';
import { CONTRACT_SCHEMA } from '../migrations/20261123_006_contract_v1';
import { loadFleetCoreConfig } from './config';
import { SCHEMA_DIR } from './paths';

export default defineSubgraph({
  name: 'fleet-core',
  port: 4001,
  envPrefix: 'FLEET_CORE',
  dbSchema: FLEET_SCHEMA,
  contracts: [CONTRACT_SCHEMA],
  migrations,
  schemaDir: SCHEMA_DIR,
  loadConfig: loadFleetCoreConfig,
  buildApp: async (config, options) => (await import('./app')).buildApp(config, options),
  /**
   * The demo fleet (demo/seed.ts): Acme Logistics and Globex Transport with their hierarchy,
   * devices, vehicles, drivers, trips, device data and the services domains, deterministic around
   * ctx.now. Writes the fleet schema only; every account's sign-in goes back as a login.
   */
  demoData: {
    isSeeded: async (knex) => (await import('./demo/index')).isSeeded(knex),
    seed: async (knex, context) => (await import('./demo/index')).seedFleetDemo(knex, context),
  },
  importers: {
    dataset: {
      description:
        'a JSON dataset of organizations, accounts, groups, devices, vehicles, drivers, trips and services (format: tools/seed/README.md)',
      run: async (knex, file, context) =>
        (await import('./import/index')).runDatasetImport(knex, file, context),
    },
  },
  /**
   * Two organizations with known answers (testing/fixture.ts): Acme (alice sees everything from
   * Acme HQ, bob only North and its depot) and Globex (carol); vehicles, devices, drivers
   * (anna, bruno, carla, dieter, greta) and trips with positions.
   */
  testFixture: async () => {
    const { F, loadFixture } = await import('./testing/fixture');
    const { FT, FIRST_TRIP, DEPOT_TRIPS, SOUTH_TRIPS, GLOBEX_TRIPS } =
      await import('./testing/fixture-trips');
    return {
      load: loadFixture,
      facts: { ...F, ...FT, FIRST_TRIP, DEPOT_TRIPS, SOUTH_TRIPS, GLOBEX_TRIPS },
    };
  },
});

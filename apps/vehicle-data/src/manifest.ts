/**
 * vehicle-data's manifest: VIN, plate and DTC decoding, plate recognition, coverage. It owns the
 * `vehicle_data` schema and reads fleet facts (a device's vehicle, vehicles by plate, visibility)
 * only through fleet-core's published contract, hence `dependsOn: ['fleet-core']`.
 */
import { defineSubgraph } from '@fleetgraph/subgraph-kit';
import { VEHICLE_DATA_SCHEMA, migrations } from '../migrations/index';
import { loadVehicleDataConfig } from './config';
import { SCHEMA_DIR } from './paths';

export default defineSubgraph({
  name: 'vehicle-data',
  port: 4005,
  envPrefix: 'VEHICLE_DATA',
  dbSchema: VEHICLE_DATA_SCHEMA,
  migrations,
  schemaDir: SCHEMA_DIR,
  dependsOn: ['fleet-core'],
  loadConfig: loadVehicleDataConfig,
  buildApp: async (config, options) => (await import('./app')).buildApp(config, options),
  /**
   * The coverage catalogue, the KBA / K-Type reference table and the plate registry (src/seed.ts):
   * deterministic, written only into empty tables, independent of the fleet (the plate lookup
   * reads the fleet's own vehicles through the contract at query time).
   */
  demoData: {
    isSeeded: async (knex) => (await import('./demo/seed')).vehicleDataSeeded(knex),
    seed: async (knex, context) => {
      const counts = await (await import('./demo/seed')).seedVehicleData(knex);
      if (Object.keys(counts).length > 0) context.log(`vehicle-data: ${JSON.stringify(counts)}`);
      return { counts };
    },
  },
});

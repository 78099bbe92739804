/** vehicle-data's manifest: VIN, plate and DTC decoding, plate recognition, coverage. */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineSubgraph } from '@fleetgraph/subgraph-kit';
import { VEHICLE_DATA_SCHEMA, migrations } from '../migrations/index';
import { loadVehicleDataConfig } from './config';

export default defineSubgraph({
  name: 'vehicle-data',
  port: 4005,
  envPrefix: 'VEHICLE_DATA',
  dbSchema: VEHICLE_DATA_SCHEMA,
  migrations,
  schemaDir: join(dirname(fileURLToPath(import.meta.url)), 'schema'),
  dependsOn: ['fleet-core'],
  loadConfig: loadVehicleDataConfig,
  buildApp: async (config, options) => (await import('./app')).buildApp(config, options),
});

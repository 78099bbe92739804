/** geodecode's manifest: offline reverse geocoding; owns the `geo` schema. */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineSubgraph } from '@fleetgraph/subgraph-kit';
import { GEO_SCHEMA, migrations } from '../migrations/index';
import { loadGeodecodeConfig } from './config';

export default defineSubgraph({
  name: 'geodecode',
  port: 4006,
  envPrefix: 'GEODECODE',
  dbSchema: GEO_SCHEMA,
  migrations,
  schemaDir: join(dirname(fileURLToPath(import.meta.url)), 'schema'),
  loadConfig: loadGeodecodeConfig,
  buildApp: async (config, options) => (await import('./app')).buildApp(config, options),
  demoData: {
    isSeeded: async (knex) => (await import('./demo/seed')).streetsPresent(knex),
    seed: async (knex, context) => {
      const summary = await (await import('./demo/seed')).seedStreets(knex);
      if (summary) context.log(`geodecode: ${JSON.stringify(summary)}`);
    },
  },
});

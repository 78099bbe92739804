/** geodecode's manifest: offline reverse geocoding; owns the `geo` schema. */
import { defineSubgraph } from '@fleetgraph/subgraph-kit';
import { GEO_SCHEMA, migrations } from '../migrations/index';
import { loadGeodecodeConfig } from './config';
import { SCHEMA_DIR } from './paths';

export default defineSubgraph({
  name: 'geodecode',
  port: 4006,
  envPrefix: 'GEODECODE',
  dbSchema: GEO_SCHEMA,
  migrations,
  schemaDir: SCHEMA_DIR,
  loadConfig: loadGeodecodeConfig,
  buildApp: async (config, options) => (await import('./app')).buildApp(config, options),
  /**
   * The generated demo streets and addresses (src/demo/streets.ts: Paris, Berlin, ...), loaded
   * only into empty geo tables. This hook is the only way they are loaded: the app never seeds.
   */
  demoData: {
    isSeeded: async (knex) => (await import('./demo/seed')).streetsPresent(knex),
    seed: async (knex, context) => {
      const summary = await (await import('./demo/seed')).seedStreets(knex);
      if (!summary) return {};
      context.log(`geodecode: ${JSON.stringify(summary)}`);
      return {
        counts: {
          streets: summary.streets,
          street_segments: summary.segments,
          addresses: summary.addresses,
        },
      };
    },
  },
  importers: {
    streets: {
      description:
        'streets and addresses from a GeoJSON FeatureCollection (OpenStreetMap tags); --replace=true empties the geo tables first',
      run: async (knex, file, context) =>
        (await import('./import/streets')).importStreetsFile(knex, file, context.options),
    },
  },
});

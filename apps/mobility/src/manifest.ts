/** mobility's manifest: fuel and energy transactions and their anomalies; owns the `mobility` schema. */
import { defineSubgraph } from '@fleetgraph/subgraph-kit';
import { MOBILITY_SCHEMA, migrations } from '../migrations/index';
import { loadMobilityConfig } from './config';
import { SCHEMA_DIR } from './paths';

export default defineSubgraph({
  name: 'mobility',
  port: 4003,
  envPrefix: 'MOBILITY',
  dbSchema: MOBILITY_SCHEMA,
  migrations,
  schemaDir: SCHEMA_DIR,
  dependsOn: ['fleet-core'],
  loadConfig: loadMobilityConfig,
  buildApp: async (config, options) => (await import('./app')).buildApp(config, options),
  demoData: {
    isSeeded: async (knex) => (await import('./demo/seed')).isSeeded(knex),
    seed: async (knex, context) => {
      const summary = await (await import('./demo/seed')).seedDemo(knex, context);
      context.log(`mobility: ${JSON.stringify(summary)}`);
      return { counts: summary };
    },
  },
  importers: {
    transactions: {
      description:
        'fuel-card statements / charge sessions: CSV (--format=csv, --mapping=provider:ours,...) or JSON (--format=json); anomalies detected on import',
      run: async (knex, file, context) =>
        (await import('./import/transactions')).importTransactions(knex, file, context),
    },
    positions: {
      description:
        'late vehicle positions (CSV vehicle,recordedAt,latitude,longitude; the vehicle by id, VIN or plate); re-evaluates pending position checks',
      run: async (knex, file, context) =>
        (await import('./import/positions')).importPositions(knex, file, context),
    },
  },
});

/** dvir's manifest: driver vehicle inspection reports, defects and files; owns the `dvir` schema. */
import { defineSubgraph } from '@fleetgraph/subgraph-kit';
import { DVIR_SCHEMA, migrations } from '../migrations/index';
import { loadDvirConfig } from './config';
import { SCHEMA_DIR } from './paths';

export default defineSubgraph({
  name: 'dvir',
  port: 4002,
  envPrefix: 'DVIR',
  dbSchema: DVIR_SCHEMA,
  migrations,
  schemaDir: SCHEMA_DIR,
  dependsOn: ['fleet-core'],
  secrets: { DVIR_FILE_URL_SECRET: 'HMAC key of the signed file URLs dvir serves' },
  loadConfig: loadDvirConfig,
  buildApp: async (config, options) => (await import('./app')).buildApp(config, options),
  demoData: {
    isSeeded: async (knex) => (await import('./demo/seed')).dvirSeeded(knex),
    seed: async (knex, context) => (await import('./demo/seed')).seedDvirDemo(knex, context),
  },
  importers: {
    reports: {
      description:
        "DVIR dataset (JSON: {templates: [...], reports: [...]}) checked with the domain rules; every problem by JSON path, nothing written on error; --global: templates naming no organization are every organization's.",
      run: async (knex, file, context) =>
        (await import('./import/reports')).importReportsFile(knex, file, context),
    },
  },
});

/** dvir's manifest: driver vehicle inspection reports, defects and files; owns the `dvir` schema. */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineSubgraph } from '@fleetgraph/subgraph-kit';
import { DVIR_SCHEMA, migrations } from '../migrations/index';
import { loadDvirConfig } from './config';

export default defineSubgraph({
  name: 'dvir',
  port: 4002,
  envPrefix: 'DVIR',
  dbSchema: DVIR_SCHEMA,
  migrations,
  schemaDir: join(dirname(fileURLToPath(import.meta.url)), 'schema'),
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

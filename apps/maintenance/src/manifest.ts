/** maintenance's manifest: service schedules, history and computed upcoming work; owns the `maintenance` schema. */
import { defineSubgraph } from '@fleetgraph/subgraph-kit';
import { MAINTENANCE_SCHEMA, migrations } from '../migrations/index';
import { loadMaintenanceConfig } from './config';
import { SCHEMA_DIR } from './paths';

export default defineSubgraph({
  name: 'maintenance',
  port: 4004,
  envPrefix: 'MAINTENANCE',
  dbSchema: MAINTENANCE_SCHEMA,
  migrations,
  dependsOn: ['fleet-core'],
  schemaDir: SCHEMA_DIR,
  loadConfig: loadMaintenanceConfig,
  buildApp: async (config, options) => (await import('./app')).buildApp(config, options),
  demoData: {
    isSeeded: async (knex) => (await import('./demo/seed')).maintenanceSeeded(knex),
    seed: async (knex, context) => (await import('./demo/seed')).seedMaintenance(knex, context),
  },
  importers: {
    templates: {
      description: 'maintenance templates (JSON: {"templates": [...]}); every problem listed by JSON path',
      run: async (knex, file, context) =>
        (await import('./import/importers')).importFile('templates', knex, file, context),
    },
    thresholds: {
      description:
        'criticality thresholds of an organization (JSON: {"organizationId", "thresholds": [...]})',
      run: async (knex, file, context) =>
        (await import('./import/importers')).importFile('thresholds', knex, file, context),
    },
    history: {
      description: 'service history (JSON: {"history": [...]}, vehicles by id, VIN or plate)',
      run: async (knex, file, context) =>
        (await import('./import/importers')).importFile('history', knex, file, context),
    },
  },
});

export {
  createKnex,
  DEFAULT_POOL_MAX,
  ping,
  preparedQuery,
  SERVICE_DATABASE_TIMEOUTS,
  type DatabaseTimeouts,
  type Knex,
  type KnexOptions,
} from './knex';
export { isDatabaseUnavailable, DATABASE_RETRY_AFTER_SECONDS } from './availability';
export {
  migrateSchema,
  migrationMode,
  pendingMigrations,
  waitForMigrations,
  type MigrationMode,
  type Migration,
  type Migrations,
} from './migrate';
export { startEmbeddedPostgres, EMBEDDED_DEFAULT_PORT, type EmbeddedDatabase } from './embedded';
export { embeddedPasswordFile, readEmbeddedPassword } from './embedded-password';
export { embeddedBinaries, serverUser } from './embedded-server';
export { resolveDatabase, runningEmbeddedServer, type ResolvedDatabase } from './resolve';
export {
  dropAppRoles,
  provisionAppRoles,
  rolePrefix,
  type AppRoleSpec,
  type ProvisionedRoles,
} from './roles';
export { createTestDatabase, type TestDatabase } from './test-database';
export {
  DEFAULT_PREPARED_STATEMENT_LIMIT,
  isPreparable,
  isPreparing,
  prepareReads,
  statementName,
} from './prepared-statements';
export { memoizedJsonParser, repeatedJsonTypes, type RepeatedJsonOptions } from './repeated-json';
export { sqlTemplate, SqlParam, type SqlTemplate, type TemplateBuild } from './sql-template';
export { arrayParameter, type ArrayElementType } from './array-parameter';
export { isRequestAbandoned, knexFor, RequestAbandoned, signalOf } from './abandon';
export { createDatabasePools, readsApplicationName, readUrlAs, type DatabasePools } from './read-pool';
export { dropKeptAggregateTriggers, keptAggregateTriggers, type KeptAggregate } from './kept-aggregate';

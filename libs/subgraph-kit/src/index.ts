export { registerSubgraph, type SubgraphContext, type SubgraphOptions, type Resolvers } from './subgraph';
export { loadTypeDefs, readSdl, schemaEnums } from './schema';
export { LANGUAGE_CODES, type LanguageCode } from './shared-enums';
export { formatErrors } from './errors';
export { DateTimeScalar, JsonScalar } from './scalars';
export { loadSubgraphConfig, type SubgraphConfig } from './config';
export { createSubgraphApp, type SubgraphBuildOptions, type SubgraphDefinition } from './app';
export { checkArgumentValues, MAX_LIST_ITEMS, MAX_ENTITY_REPRESENTATIONS } from './input-limits';
export {
  defineSubgraph,
  subgraphUrlVariable,
  type SubgraphManifest,
  type DemoData,
  type DemoDataContext,
  type DemoLogin,
  type DemoSeedResult,
  type TestFixture,
  type DataImporter,
  type ImportOutcome,
  type Env,
} from './manifest';
export { runSubgraph } from './main';
export { dependencyManifest, importManifestModule } from './dependency-manifest';
export { lazyFields, type Made, type Makers } from './lazy-fields';
export { listFields, listProjection, objectProjection, selectedFields } from './selection';
export {
  visibleId,
  visibleIdOf,
  visibleReference,
  type LookupOf,
  type VisibilityLookup,
} from './visible-ids';

/**
 * The wall around Apollo: everything in the gateway that replaces or steps around behaviour of
 * @apollo/gateway or @apollo/server is in this folder and reached through this module only
 * (README.md says what, why and how to upgrade; version-gate.ts decides what runs).
 */
export { engineGate, installedVersion, REVIEWED_VERSIONS, type EngineGate } from './version-gate';
export { createSubgraphPools, ForwardingDataSource, type SubgraphPools } from './data-source';
export { createCacheFront, type CacheFront, type RememberedRequest } from './front-door';
export { expectPassThrough, passThroughCheck } from './result-shaping/pass-through';
export { installCompiledResultShaping, compiledShapingInstalled } from './result-shaping/install';
export { jsonMediaTypeStatus } from './json-media-type-status';

import { loadSubgraphConfig } from '@fleetgraph/subgraph-kit';

export const loadFleetCoreConfig = (env: Record<string, string | undefined> = process.env) =>
  loadSubgraphConfig('fleet-core', 'FLEET_CORE', 4001, env);

import { loadSubgraphConfig, type SubgraphConfig } from '@fleetgraph/subgraph-kit';

/** geodecode reads only the variables every subgraph reads (no own fields). */
export type GeodecodeConfig = SubgraphConfig;

export const loadGeodecodeConfig = (env: Record<string, string | undefined> = process.env): GeodecodeConfig =>
  loadSubgraphConfig('geodecode', 'GEODECODE', 4006, env);

import { loadSubgraphConfig, type SubgraphConfig } from '@fleetgraph/subgraph-kit';

export type MobilityConfig = SubgraphConfig;

export const loadMobilityConfig = (env: Record<string, string | undefined> = process.env): MobilityConfig =>
  loadSubgraphConfig('mobility', 'MOBILITY', 4003, env);

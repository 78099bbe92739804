import { envField, parseEnv, z } from '@fleetgraph/service-kit';
import { loadSubgraphConfig, type SubgraphConfig } from '@fleetgraph/subgraph-kit';

export interface GeodecodeConfig extends SubgraphConfig {
  /** Load the generated demo streets at start when the geo tables are empty (GEODECODE_DEMO_STREETS, default true). */
  demoStreets: boolean;
}

export const loadGeodecodeConfig = (
  env: Record<string, string | undefined> = process.env,
): GeodecodeConfig => ({
  ...loadSubgraphConfig('geodecode', 'GEODECODE', 4006, env),
  demoStreets: parseEnv('geodecode', z.object({ GEODECODE_DEMO_STREETS: envField.bool(true) }), env)
    .GEODECODE_DEMO_STREETS,
});

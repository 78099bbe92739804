import { parseEnv, z } from '@fleetgraph/service-kit';
import { loadSubgraphConfig, type SubgraphConfig } from '@fleetgraph/subgraph-kit';

export interface MaintenanceConfig extends SubgraphConfig {
  /**
   * The clock upcoming work is computed against. MAINTENANCE_NOW (ISO 8601) pins it (tests,
   * demos of a given day); unset, it is the wall clock at each request.
   */
  clock: () => Date;
}

export const loadMaintenanceConfig = (
  env: Record<string, string | undefined> = process.env,
): MaintenanceConfig => {
  const parsed = parseEnv(
    'maintenance',
    z.object({
      MAINTENANCE_NOW: z
        .string()
        .refine((v) => !Number.isNaN(Date.parse(v)), 'must be an ISO 8601 date-time')
        .optional(),
    }),
    env,
  );
  const pinned = parsed.MAINTENANCE_NOW ? new Date(parsed.MAINTENANCE_NOW) : null;
  return {
    ...loadSubgraphConfig('maintenance', 'MAINTENANCE', 4004, env),
    clock: pinned ? () => new Date(pinned.getTime()) : () => new Date(),
  };
};

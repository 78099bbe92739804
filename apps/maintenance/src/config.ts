import { parseEnv, z } from '@fleetgraph/service-kit';
import { loadSubgraphConfig, type SubgraphConfig } from '@fleetgraph/subgraph-kit';

export interface MaintenanceConfig extends SubgraphConfig {
  /**
   * The clock upcoming work is computed against. MAINTENANCE_NOW (ISO 8601) pins it (tests,
   * demos of a given day); unset, it is the wall clock at each request.
   */
  clock: () => Date;
  /**
   * Period of the pass that brings kept upcoming work up to date with fleet-core's facts
   * (odometer, trips, vehicles): the staleness bound of those facts is this period plus one
   * pass. MAINTENANCE_UPCOMING_REFRESH_SECONDS, default 60; 0 turns the timer off (tests).
   */
  upcomingRefreshMs: number;
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
      MAINTENANCE_UPCOMING_REFRESH_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
    }),
    env,
  );
  const pinned = parsed.MAINTENANCE_NOW ? new Date(parsed.MAINTENANCE_NOW) : null;
  return {
    ...loadSubgraphConfig('maintenance', 'MAINTENANCE', 4004, env),
    clock: pinned ? () => new Date(pinned.getTime()) : () => new Date(),
    upcomingRefreshMs: parsed.MAINTENANCE_UPCOMING_REFRESH_SECONDS * 1000,
  };
};

import { join } from 'node:path';
import { dataDir, parseEnv, z } from '@fleetgraph/service-kit';
import { loadSubgraphConfig, type SubgraphConfig } from '@fleetgraph/subgraph-kit';

export interface VehicleDataConfig extends SubgraphConfig {
  /** where the decompressed vPIC database lives (VEHICLE_DATA_VPIC_DIR, default <data dir>/vpic) */
  vpicDir: string;
  /** alpr's reader threads, each reading one picture at a time (VEHICLE_DATA_ALPR_THREADS, 1-8, default 1) */
  alprThreads: number;
  /** Pictures waiting for a reader thread at most (VEHICLE_DATA_ALPR_QUEUE, default 8); more are SUBGRAPH_BUSY */
  alprQueueMax: number;
  /** A reading is stopped past this (VEHICLE_DATA_ALPR_TIME_BUDGET_MS, default 8000): PROCESSING_TIME_EXCEEDED */
  alprTimeBudgetMs: number;
}

export function loadVehicleDataConfig(
  env: Record<string, string | undefined> = process.env,
): VehicleDataConfig {
  const base = loadSubgraphConfig('vehicle-data', 'VEHICLE_DATA', 4005, env);
  const own = parseEnv(
    'vehicle-data',
    z.object({
      VEHICLE_DATA_VPIC_DIR: z.string().min(1).optional(),
      VEHICLE_DATA_ALPR_THREADS: z.coerce.number().int().min(1).max(8).default(1),
      VEHICLE_DATA_ALPR_QUEUE: z.coerce.number().int().min(0).default(8),
      VEHICLE_DATA_ALPR_TIME_BUDGET_MS: z.coerce.number().int().min(1).default(8000),
    }),
    env,
  );
  return {
    ...base,
    vpicDir: own.VEHICLE_DATA_VPIC_DIR ?? join(dataDir, 'vpic'),
    alprThreads: own.VEHICLE_DATA_ALPR_THREADS,
    alprQueueMax: own.VEHICLE_DATA_ALPR_QUEUE,
    alprTimeBudgetMs: own.VEHICLE_DATA_ALPR_TIME_BUDGET_MS,
  };
}

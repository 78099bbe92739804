import { join } from 'node:path';
import { dataDir, parseEnv, z } from '@fleetgraph/service-kit';
import { loadSubgraphConfig, type SubgraphConfig } from '@fleetgraph/subgraph-kit';

export interface VehicleDataConfig extends SubgraphConfig {
  /** where the decompressed vPIC database lives (VEHICLE_DATA_VPIC_DIR, default <data dir>/vpic) */
  vpicDir: string;
  /** tesseract workers kept warm for alpr (VEHICLE_DATA_OCR_WORKERS, 1-8, default 2) */
  ocrWorkers: number;
}

export function loadVehicleDataConfig(
  env: Record<string, string | undefined> = process.env,
): VehicleDataConfig {
  const base = loadSubgraphConfig('vehicle-data', 'VEHICLE_DATA', 4005, env);
  const own = parseEnv(
    'vehicle-data',
    z.object({
      VEHICLE_DATA_VPIC_DIR: z.string().min(1).optional(),
      VEHICLE_DATA_OCR_WORKERS: z.coerce.number().int().min(1).max(8).default(2),
    }),
    env,
  );
  return {
    ...base,
    vpicDir: own.VEHICLE_DATA_VPIC_DIR ?? join(dataDir, 'vpic'),
    ocrWorkers: own.VEHICLE_DATA_OCR_WORKERS,
  };
}

/**
 * The subgraphs the platform starts, in one list: how to configure and build each one. Adding a
 * subgraph to the platform is one entry here (and one in tools/compose/src/subgraphs.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { SubgraphBuildOptions } from '@fleetgraph/subgraph-kit';
import { buildApp as buildFleetCore, loadFleetCoreConfig } from '@fleetgraph/fleet-core';
import { buildApp as buildGeodecode, loadGeodecodeConfig } from '@fleetgraph/geodecode';
import { buildApp as buildVehicleData, loadVehicleDataConfig } from '@fleetgraph/vehicle-data';

type Env = Record<string, string | undefined>;

export interface SubgraphLauncher {
  /** the name composed into the supergraph (and SUBGRAPH_<NAME>_URL at the gateway) */
  name: string;
  /** env prefix of its port variable: <PREFIX>_PORT */
  envPrefix: string;
  defaultPort: number;
  build(env: Env, databaseUrl: string, options: SubgraphBuildOptions): Promise<FastifyInstance>;
}

export const SUBGRAPH_LAUNCHERS: SubgraphLauncher[] = [
  {
    name: 'fleet-core',
    envPrefix: 'FLEET_CORE',
    defaultPort: 4001,
    build: (env, databaseUrl, options) =>
      buildFleetCore({ ...loadFleetCoreConfig(env), databaseUrl }, options),
  },
  {
    name: 'geodecode',
    envPrefix: 'GEODECODE',
    defaultPort: 4006,
    build: (env, databaseUrl, options) =>
      buildGeodecode({ ...loadGeodecodeConfig(env), databaseUrl }, options),
  },
  {
    name: 'vehicle-data',
    envPrefix: 'VEHICLE_DATA',
    defaultPort: 4005,
    build: (env, databaseUrl, options) =>
      buildVehicleData({ ...loadVehicleDataConfig(env), databaseUrl }, { ...options, seed: true }),
  },
];

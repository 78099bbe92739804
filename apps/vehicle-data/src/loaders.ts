import type { Knex } from 'knex';
import type { CursorCodec } from '@fleetgraph/paging';
import type { UserContext } from '@fleetgraph/auth';
import type { PlateReader } from './domain/alpr/reader';
import type { Vpic } from './domain/vin/vpic';

/** Process-wide resources, created by buildApp and closed with the app. */
export interface VehicleDataServices {
  knex: Knex;
  codec: CursorCodec;
  vpic: Vpic;
  plates: PlateReader;
}

/** Per-request context: the services plus the viewer (account id). */
export function createLoaders(services: VehicleDataServices, user: UserContext) {
  return { ...services, viewer: user.uid };
}

export type VehicleDataLoaders = ReturnType<typeof createLoaders>;

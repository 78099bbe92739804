import type { Knex } from 'knex';
import type { CursorCodec } from '@fleetgraph/paging';
import type { UserContext } from '@fleetgraph/auth';
import type { PlateReader } from './domain/alpr/reader';
import type { Vpic } from './domain/vin/vpic';

/** Process-wide resources, created by buildApp and closed with the app. */
export interface VehicleDataResources {
  knex: Knex;
  codec: CursorCodec;
  vpic: Vpic;
  plates: PlateReader;
}

/** The per-request reader: the process resources plus the viewer (account id). */
export function createReader(resources: VehicleDataResources, user: UserContext) {
  return { ...resources, viewer: user.uid };
}

export type VehicleDataReader = ReturnType<typeof createReader>;

/**
 * Per request: whether the viewer sees fleet-core's objects by id, one DataLoader per kind
 * (vehicle, device, driver, group, account), each made on first use. A batch is one statement
 * (the ids unnested, each tested with the `*VisibleTo` condition); ids that cannot match are
 * never sent. Subgraphs use it to withhold the ids and references of what the viewer does not
 * see (subgraph-kit visible-ids.ts) and to answer `__resolveReference` for fleet entities.
 */
import DataLoader from 'dataloader';
import type { Viewer } from '@fleetgraph/auth';
import type { Knex } from 'knex';
import { arrayParameter } from '@fleetgraph/db';
import { isUuid } from '@fleetgraph/paging';
import {
  accountVisibleTo,
  deviceVisibleTo,
  driverVisibleTo,
  groupVisibleTo,
  vehicleVisibleTo,
} from './visibility';

type VisibleTo = (knex: Knex, accountId: Viewer, column: string) => Knex.Raw;

const KINDS = {
  vehicle: [vehicleVisibleTo, 'uuid'],
  device: [deviceVisibleTo, 'text'],
  driver: [driverVisibleTo, 'uuid'],
  group: [groupVisibleTo, 'uuid'],
  account: [accountVisibleTo, 'uuid'],
} as const satisfies Record<string, readonly [VisibleTo, 'uuid' | 'text']>;

export type FleetKind = keyof typeof KINDS;
export type FleetVisibility = Readonly<Record<FleetKind, DataLoader<string, boolean, string>>>;

function visibleIds(knex: Knex, viewer: Viewer, kind: FleetKind) {
  const [visibleTo, type] = KINDS[kind];
  const key = (id: string) => (type === 'uuid' ? id.toLowerCase() : id);
  return new DataLoader<string, boolean, string>(
    async (given) => {
      const ids = [...new Set(given.map(key))].filter((id) => type === 'text' || isUuid(id));
      const seen = new Set<string>();
      if (ids.length > 0) {
        const rows: Array<{ id: string }> = await knex
          .select('v.id')
          .from(knex.raw(`unnest(${arrayParameter(type)}) as v(id)`, [ids]))
          .where(visibleTo(knex, viewer, 'v.id'));
        for (const row of rows) seen.add(key(String(row.id)));
      }
      return given.map((id) => seen.has(key(id)));
    },
    { cacheKeyFn: key },
  );
}

export function fleetVisibility(knex: Knex, viewer: Viewer): FleetVisibility {
  const made = new Map<FleetKind, DataLoader<string, boolean, string>>();
  const loader = (kind: FleetKind) => {
    let found = made.get(kind);
    if (!found) made.set(kind, (found = visibleIds(knex, viewer, kind)));
    return found;
  };
  return {
    get vehicle() {
      return loader('vehicle');
    },
    get device() {
      return loader('device');
    },
    get driver() {
      return loader('driver');
    },
    get group() {
      return loader('group');
    },
    get account() {
      return loader('account');
    },
  };
}

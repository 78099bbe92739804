/**
 * What every mobility resolver shares: the request's context type, fleet-core's entities by
 * reference (ids are data: subgraph-kit visible-ids.ts), nested pages, a transaction by id and
 * the statistics loader.
 */
import type { GraphQLResolveInfo } from 'graphql';
import { listProjection, objectProjection, visibleReference, type LookupOf } from '@fleetgraph/subgraph-kit';
import { TRANSACTION_SPEC } from '../data/tables';
import { relations, type MobilityReader } from '../reader';

export type Ctx = { reader: MobilityReader };
export type Args = Record<string, any>;

/**
 * Ids are data (subgraph-kit visible-ids.ts): a reference to a device, vehicle, driver or group
 * the viewer does not see is null, though the transaction is visible through another of them;
 * `detectedById`/`clearedById` hold an account id when a USER acted (else a rule version).
 */
export const fleet = {
  device: ((c) => c.reader.fleet.device) as LookupOf<Ctx>,
  vehicle: ((c) => c.reader.fleet.vehicle) as LookupOf<Ctx>,
  driver: ((c) => c.reader.fleet.driver) as LookupOf<Ctx>,
  group: ((c) => c.reader.fleet.group) as LookupOf<Ctx>,
};
export const fleetReferences = {
  device: visibleReference('Device', 'deviceId', fleet.device),
  vehicle: visibleReference('Vehicle', 'vehicleId', fleet.vehicle),
  driver: visibleReference('Driver', 'driverId', fleet.driver),
  group: visibleReference('Group', 'groupId', fleet.group),
};
export const userAccount =
  (by: string): LookupOf<Ctx> =>
  (c, row) =>
    row[by] === 'USER' ? c.reader.fleet.account : undefined;

export type Info = GraphQLResolveInfo;

/** A nested page, selecting only the columns its selection reads (TableSpec.fieldNeeds). */
export const page = (
  reader: MobilityReader,
  relation: keyof typeof relations,
  parentId: string,
  args: Args,
  info: Info,
) =>
  reader.relations.get(relation).load({
    parentId,
    args,
    fields: listProjection(relations[relation].child, info),
  });

/** A transaction by id, reading only the columns the selection on it needs. */
export const transaction = (reader: MobilityReader, id: string, info: Info) =>
  reader.transactions.fields(objectProjection(TRANSACTION_SPEC, info)).load(id);

export const stats = (
  reader: MobilityReader,
  kind: 'device' | 'group',
  what: 'transactions' | 'anomalies',
  parentId: string,
  args: Args,
) =>
  reader.statistics.load({
    kind,
    what,
    parentId,
    args: {
      from: args.from ?? null,
      to: args.to ?? null,
      period: args.period ?? null,
      groupBy: args.groupBy ?? null,
    },
  });

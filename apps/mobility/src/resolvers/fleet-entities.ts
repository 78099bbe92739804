/**
 * What mobility adds to fleet-core's Device, Group and Driver: pages of their transactions and
 * anomalies, and statistics. A reference resolves only for an entity the caller sees.
 */
import { groupPage, page, stats, type Args, type Ctx, type Info } from './common';

export const deviceResolvers = {
  __resolveReference: async (r: { id: string }, { loaders }: Ctx) =>
    (await loaders.fleet.device.load(String(r.id))) ? { id: String(r.id) } : null,
  mobilityTransactions: (d: { id: string }, args: Args, { loaders }: Ctx, info: Info) =>
    page(loaders, 'deviceTransactions', d.id, args, info),
  mobilityTransactionAnomalies: (d: { id: string }, args: Args, { loaders }: Ctx, info: Info) =>
    page(loaders, 'deviceAnomalies', d.id, args, info),
  mobilityTransactionStatistics: (d: { id: string }, args: Args, { loaders }: Ctx, info: Info) =>
    stats(loaders, 'device', 'transactions', d.id, args, info),
  mobilityTransactionAnomalyStatistics: (d: { id: string }, args: Args, { loaders }: Ctx, info: Info) =>
    stats(loaders, 'device', 'anomalies', d.id, args, info),
};

export const groupResolvers = {
  __resolveReference: async (r: { id: string }, { loaders }: Ctx) =>
    (await loaders.fleet.group.load(String(r.id))) ? { id: String(r.id).toLowerCase() } : null,
  mobilityTransactions: (g: { id: string }, args: Args, { loaders }: Ctx, info: Info) =>
    groupPage(loaders, 'groupTransactions', g.id, args, info),
  mobilityTransactionAnomalies: (g: { id: string }, args: Args, { loaders }: Ctx, info: Info) =>
    groupPage(loaders, 'groupAnomalies', g.id, args, info),
  mobilityTransactionStatistics: (g: { id: string }, args: Args, { loaders }: Ctx, info: Info) =>
    stats(loaders, 'group', 'transactions', g.id, args, info),
  mobilityTransactionAnomalyStatistics: (g: { id: string }, args: Args, { loaders }: Ctx, info: Info) =>
    stats(loaders, 'group', 'anomalies', g.id, args, info),
};

export const driverResolvers = {
  __resolveReference: async (r: { id: string }, { loaders }: Ctx) =>
    (await loaders.fleet.driver.load(String(r.id))) ? { id: String(r.id).toLowerCase() } : null,
  mobilityTransactions: (d: { id: string }, args: Args, { loaders }: Ctx, info: Info) =>
    page(loaders, 'driverTransactions', d.id, args, info),
  mobilityTransactionAnomalies: (d: { id: string }, args: Args, { loaders }: Ctx, info: Info) =>
    page(loaders, 'driverAnomalies', d.id, args, info),
};

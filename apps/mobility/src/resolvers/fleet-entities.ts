/**
 * What mobility adds to fleet-core's Device, Group and Driver: pages of their transactions and
 * anomalies, and statistics. A reference resolves only for an entity the caller sees.
 */
import { page, stats, type Args, type Ctx, type Info } from './common';

export const deviceResolvers = {
  __resolveReference: async (r: { id: string }, { reader }: Ctx) =>
    (await reader.fleet.device.load(String(r.id))) ? { id: String(r.id) } : null,
  mobilityTransactions: (d: { id: string }, args: Args, { reader }: Ctx, info: Info) =>
    page(reader, 'deviceTransactions', d.id, args, info),
  mobilityTransactionAnomalies: (d: { id: string }, args: Args, { reader }: Ctx, info: Info) =>
    page(reader, 'deviceAnomalies', d.id, args, info),
  mobilityTransactionStatistics: (d: { id: string }, args: Args, { reader }: Ctx) =>
    stats(reader, 'device', 'transactions', d.id, args),
  mobilityTransactionAnomalyStatistics: (d: { id: string }, args: Args, { reader }: Ctx) =>
    stats(reader, 'device', 'anomalies', d.id, args),
};

export const groupResolvers = {
  __resolveReference: async (r: { id: string }, { reader }: Ctx) =>
    (await reader.fleet.group.load(String(r.id))) ? { id: String(r.id).toLowerCase() } : null,
  mobilityTransactions: (g: { id: string }, args: Args, { reader }: Ctx, info: Info) =>
    page(reader, 'groupTransactions', g.id, args, info),
  mobilityTransactionAnomalies: (g: { id: string }, args: Args, { reader }: Ctx, info: Info) =>
    page(reader, 'groupAnomalies', g.id, args, info),
  mobilityTransactionStatistics: (g: { id: string }, args: Args, { reader }: Ctx) =>
    stats(reader, 'group', 'transactions', g.id, args),
  mobilityTransactionAnomalyStatistics: (g: { id: string }, args: Args, { reader }: Ctx) =>
    stats(reader, 'group', 'anomalies', g.id, args),
};

export const driverResolvers = {
  __resolveReference: async (r: { id: string }, { reader }: Ctx) =>
    (await reader.fleet.driver.load(String(r.id))) ? { id: String(r.id).toLowerCase() } : null,
  mobilityTransactions: (d: { id: string }, args: Args, { reader }: Ctx, info: Info) =>
    page(reader, 'driverTransactions', d.id, args, info),
  mobilityTransactionAnomalies: (d: { id: string }, args: Args, { reader }: Ctx, info: Info) =>
    page(reader, 'driverAnomalies', d.id, args, info),
};

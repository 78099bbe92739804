/** The fields of MobilityTransaction: its anomaly counts, fleet references and anomalies page. */
import type { TransactionRow } from '../data/tables';
import { fleetReferences, page, type Args, type Ctx, type Info } from './common';

export const transactionResolvers = {
  __resolveReference: (r: { id: string }, { reader }: Ctx) => reader.transactions.load(String(r.id)),
  hasAnomalies: async (t: TransactionRow, _: Args, { reader }: Ctx) =>
    (await reader.anomalyCounts.load(t.id)).total > 0,
  hasActiveAnomalies: async (t: TransactionRow, _: Args, { reader }: Ctx) =>
    (await reader.anomalyCounts.load(t.id)).active > 0,
  anomaliesCount: async (t: TransactionRow, _: Args, { reader }: Ctx) =>
    (await reader.anomalyCounts.load(t.id)).total,
  activeAnomaliesCount: async (t: TransactionRow, _: Args, { reader }: Ctx) =>
    (await reader.anomalyCounts.load(t.id)).active,
  odometerKm: (t: TransactionRow) => t.odometerKm,
  ...fleetReferences,
  mobilityTransactionAnomalies: (t: TransactionRow, args: Args, { reader }: Ctx, info: Info) =>
    page(reader, 'transactionAnomalies', t.id, args, info),
};

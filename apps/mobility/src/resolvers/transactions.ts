/** The fields of MobilityTransaction: its anomaly counts, fleet references and anomalies page. */
import type { TransactionRow } from '../data/tables';
import { fleetReferences, page, type Args, type Ctx, type Info } from './common';

export const transactionResolvers = {
  __resolveReference: (r: { id: string }, { loaders }: Ctx) => loaders.transactions.load(String(r.id)),
  hasAnomalies: async (t: TransactionRow, _: Args, { loaders }: Ctx) =>
    (await loaders.anomalyCounts.load(t.id)).total > 0,
  hasActiveAnomalies: async (t: TransactionRow, _: Args, { loaders }: Ctx) =>
    (await loaders.anomalyCounts.load(t.id)).active > 0,
  anomaliesCount: async (t: TransactionRow, _: Args, { loaders }: Ctx) =>
    (await loaders.anomalyCounts.load(t.id)).total,
  activeAnomaliesCount: async (t: TransactionRow, _: Args, { loaders }: Ctx) =>
    (await loaders.anomalyCounts.load(t.id)).active,
  odometerKm: (t: TransactionRow) => t.odometerKm,
  ...fleetReferences,
  mobilityTransactionAnomalies: (t: TransactionRow, args: Args, { loaders }: Ctx, info: Info) =>
    page(loaders, 'transactionAnomalies', t.id, args, info),
};

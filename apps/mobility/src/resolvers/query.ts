/** The root fields of the mobility subgraph. */
import { anomaliesQuery } from './anomalies';
import { transaction, type Args, type Ctx, type Info } from './common';

export const queryResolvers = {
  mobilityTransaction: (_: unknown, args: Args, { reader }: Ctx, info: Info) =>
    transaction(reader, String(args.id), info),
  mobilityTransactionAnomalies: (_: unknown, args: Args, { reader }: Ctx, info: Info) =>
    anomaliesQuery(reader, args, info),
};

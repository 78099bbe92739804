import { from, selectColumns } from '@fleetgraph/paging';
import type { Ctx, Row } from '../../data/services/kit';
import { lpaOperations } from '../../data/services/lpa/tables';
import { LPA_FIELDS, validateLpa, type LpaParameters } from '../../domain/services/lpa-validate';

type LpaArgs = { imei: string; functionName: string; parameters: LpaParameters };

/** The SQL column of each identifying parameter. */
const COLUMNS: Record<(typeof LPA_FIELDS)[number], string> = {
  iccid: 'lp.iccid',
  activationCode: 'lp.activation_code',
  smdpAddress: 'lp.smdp_address',
  matchingId: 'lp.matching_id',
  nickname: 'lp.nickname',
};

/** The operation as it would be if requested: nothing of it exists yet. */
const notRequested = (imei: string, functionName: string, parameters: LpaParameters) => ({
  id: null,
  imei,
  functionName,
  status: 'NOT_REQUESTED',
  ...Object.fromEntries(LPA_FIELDS.map((f) => [f, parameters[f] ?? null])),
  hasConfirmationCode: Boolean(parameters.confirmationCode),
});

export const lpaResolvers = {
  Query: {
    /** The latest operation of the function on a visible device with these parameters. */
    async lpa(_: unknown, args: LpaArgs, { reader }: Ctx) {
      const parameters = args.parameters ?? {};
      validateLpa(args.functionName, parameters);
      const device = await reader.device.load(args.imei);
      if (!device) return null;
      const query = from(reader.knex, lpaOperations)
        .select(selectColumns(lpaOperations))
        .where('lp.device_id', device.id)
        .where('lp.function_name', args.functionName)
        .orderBy([
          { column: 'lp.requested_at', order: 'desc' },
          { column: 'lp.id', order: 'desc' },
        ])
        .first();
      for (const field of LPA_FIELDS)
        if (parameters[field] != null) query.where(COLUMNS[field], parameters[field]);
      const row = (await query) as Row | undefined;
      return row ?? notRequested(device.id, args.functionName, parameters);
    },
  },
  Lpa: {
    parameters: (row: Row) => ({
      ...Object.fromEntries(LPA_FIELDS.map((f) => [f, row[f] ?? null])),
      hasConfirmationCode: Boolean(row.hasConfirmationCode),
    }),
  },
};

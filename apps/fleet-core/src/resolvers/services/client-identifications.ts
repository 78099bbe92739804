import type { Knex } from 'knex';
import { from, isUuid, uuidsOnly, type PageArgs } from '@fleetgraph/paging';
import { rootPage } from '../list';
import { account, accountId, escapeLike, ownOrganization, type Ctx, type Row } from '../../data/services/kit';
import { clientIdentifications } from '../../data/services/client-identifications/tables';

interface ClientIdentificationFilters {
  code?: string | null;
  label?: string | null;
  distributorId?: string | null;
  clientReference?: string | null;
  defaultAccountId?: string | null;
  usable?: boolean | null;
  revoked?: boolean | null;
}

/** Narrows `base` (client identifications as `ci`) to the given filters. */
function filtered(base: Knex.QueryBuilder, f: ClientIdentificationFilters): Knex.QueryBuilder {
  if (f.code != null) base.where('ci.code', f.code);
  if (f.label != null) base.whereILike('ci.label', `%${escapeLike(f.label)}%`);
  if (f.distributorId != null) base.whereIn('ci.distributor_id', uuidsOnly([f.distributorId]));
  if (f.clientReference != null) base.where('ci.client_reference', f.clientReference);
  if (f.defaultAccountId != null) base.whereIn('ci.default_account_id', uuidsOnly([f.defaultAccountId]));
  if (f.usable != null) base.where('ci.usable', f.usable);
  if (f.revoked != null) base.where('ci.revoked', f.revoked);
  return base;
}

export const clientIdentificationResolvers = {
  Query: {
    async clientIdentifications(_: unknown, args: PageArgs & ClientIdentificationFilters, { reader }: Ctx) {
      const { knex, viewer } = reader;
      const { pageSize: _size, pageId: _id, ...filters } = args;
      const base = filtered(
        from(knex, clientIdentifications).whereRaw(ownOrganization(knex, 'ci', viewer)),
        args,
      );
      // Filtering by an account the caller does not see matches nothing (else it is an oracle for
      // the ids the defaultAccountId field hides).
      const account = args.defaultAccountId;
      if (account != null && !(isUuid(account) && (await reader.account.load(account))))
        base.whereRaw('false');
      return rootPage(reader, 'clientIdentifications', clientIdentifications, args, filters, base);
    },
  },
  ClientIdentification: {
    distributor: (row: Row, _: unknown, { reader }: Ctx) =>
      row.distributorId ? reader.services.distributor.load(String(row.distributorId)) : null,
    defaultAccountId: accountId('defaultAccountId'),
    defaultAccount: account('defaultAccountId'),
  },
};

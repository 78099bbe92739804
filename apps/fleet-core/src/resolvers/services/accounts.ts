import { account, type Ctx, type Row } from '../../data/services/kit';

export const accountResolvers = {
  Account: {
    roles: (row: Row, _: unknown, { reader }: Ctx) => reader.services.roles.load(String(row.id)),
    alertPreference: (row: Row, _: unknown, { reader }: Ctx) =>
      reader.services.alertPreference.load(String(row.id)),
  },
  AccountRole: { grantedBy: account('grantedById') },
};

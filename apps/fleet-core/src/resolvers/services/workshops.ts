import { nested, type Ctx, type Row } from '../../data/services/kit';

/** The workshop of a row with a `workshopId` (bookings, onboarding distributors). */
export const workshopOf = (row: Row, _: unknown, { reader }: Ctx) =>
  row.workshopId ? reader.services.workshop.load(String(row.workshopId)) : null;

export const workshopResolvers = {
  Account: { workshops: nested('accountWorkshops') },
};

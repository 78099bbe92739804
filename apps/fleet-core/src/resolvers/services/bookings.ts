import type { PageArgs } from '@fleetgraph/paging';
import { rootPage } from '../list';
import { vehicle, type Ctx } from '../../data/services/kit';
import { workshopOf } from './workshops';
import { bookings } from '../../data/services/bookings/tables';
import { personalBookingColumns, visibleBookings } from '../../data/services/bookings/visibility';

export const bookingResolvers = {
  Query: {
    booking: (_: unknown, args: { id: string }, { reader }: Ctx) => reader.services.booking.load(args.id),

    bookings(_: unknown, args: PageArgs, { reader }: Ctx) {
      const { knex, viewer } = reader;
      // rootPage adds the table's columns; the personal ones are selected here, by rule.
      const base = visibleBookings(knex, viewer).select(personalBookingColumns(knex, viewer));
      return rootPage(reader, 'bookings', bookings, args, {}, base);
    },
  },
  Booking: { workshop: workshopOf, vehicle: vehicle('vehicleId') },
};

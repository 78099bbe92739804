import { serviceLookup, type LoaderEnv } from '../kit';
import { bookingColumns, visibleBookings } from './visibility';

const booking = serviceLookup({ column: 'b.id', kind: 'uuid' }, ({ knex, viewer }) =>
  visibleBookings(knex, viewer).select(bookingColumns(knex, viewer)),
);

export const bookingLoaders = (env: LoaderEnv) => ({
  booking: booking(env),
});

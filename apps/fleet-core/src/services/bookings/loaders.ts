import { byKey, uuidsOnly } from '@fleetgraph/paging';
import type { LoaderEnv } from '../kit';
import { bookingColumns, visibleBookings } from './visibility';

export const bookingLoaders = ({ knex, viewer }: LoaderEnv) => ({
  booking: byKey(
    (keys) =>
      visibleBookings(knex, viewer).select(bookingColumns(knex, viewer)).whereIn('b.id', uuidsOnly(keys)),
    'id',
    'uuid',
  ),
});

/**
 * Who sees a booking, and who sees its personal columns: bookings are only ever visible within
 * the caller's organization, its own or for a vehicle it sees; the user's email, name and phone
 * only to the booking's own user or an account holding ADMIN or FLEET_MANAGER (else null).
 */
import type { Knex } from 'knex';
import { selectColumns } from '@fleetgraph/paging';
import { visibleVehicles } from '@fleetgraph/visibility';
import { PERSONAL_DATA_ROLES } from '../../roles';
import { ownOrganization } from '../kit';
import { bookings } from './tables';

/** Bookings a viewer sees: of its organization, and its own or for a vehicle it sees. */
export function visibleBookings(knex: Knex, viewer: string): Knex.QueryBuilder {
  return knex('fleet.bookings as b')
    .whereRaw(ownOrganization(knex, 'b', viewer))
    .where((q) => q.where('b.account_id', viewer).orWhereIn('b.vehicle_id', visibleVehicles(knex, viewer)));
}

/** The personal columns, each null unless the personal data rule allows it. */
export function personalBookingColumns(knex: Knex, viewer: string): Knex.Raw[] {
  const allowed = `(b.account_id = ? or exists (select 1 from fleet.account_roles r where r.account_id = ? and r.role in (${PERSONAL_DATA_ROLES.map(() => '?').join(', ')})))`;
  const personal = (column: string, field: string) =>
    knex.raw(`case when ${allowed} then b.${column} end as "${field}"`, [
      viewer,
      viewer,
      ...PERSONAL_DATA_ROLES,
    ]);
  return [
    personal('user_email', 'userEmail'),
    personal('user_name', 'userName'),
    personal('user_phone_number', 'userPhoneNumber'),
  ];
}

/** Every booking column, personal ones by rule. */
export const bookingColumns = (knex: Knex, viewer: string): Array<string | Knex.Raw> => [
  ...selectColumns(bookings),
  ...personalBookingColumns(knex, viewer),
];

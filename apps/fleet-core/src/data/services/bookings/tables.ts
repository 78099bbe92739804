import type { TableSpec } from '@fleetgraph/paging';

/** Personal columns (user_email, user_name, user_phone_number) are selected apart, by rule. */
export const bookings: TableSpec = {
  table: 'fleet.bookings',
  alias: 'b',
  columns: {
    id: 'id',
    accountId: 'account_id',
    vehicleId: 'vehicle_id',
    workshopId: 'workshop_id',
    plateNumber: 'plate_number',
    bookingDate: 'booking_date',
    status: 'status',
    quotationIds: 'quotation_ids',
    vehicleMake: 'vehicle_make',
    vehicleModel: 'vehicle_model',
    vehicleYear: 'vehicle_year',
    vin: 'vin',
    city: 'city',
    country: 'country',
    additionalInformation: 'additional_information',
    preferredLanguage: 'preferred_language',
    contactMethod: 'contact_method',
    createdAt: 'created_at',
    updatedAt: 'updated_at',
  },
  order: { columns: ['b.booking_date', 'b.id'], fields: ['bookingDate', 'id'], direction: 'desc' },
};

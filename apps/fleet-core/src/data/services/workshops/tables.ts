import type { TableSpec } from '@fleetgraph/paging';

export const workshops: TableSpec = {
  table: 'fleet.workshops',
  alias: 'w',
  columns: {
    id: 'id',
    name: 'name',
    address: 'address',
    postalCode: 'postal_code',
    city: 'city',
    countryCode: 'country_code',
    phone: 'phone',
    email: 'email',
    website: 'website',
    latitude: 'latitude',
    longitude: 'longitude',
  },
  order: { columns: ['w.name', 'w.id'], fields: ['name', 'id'] },
};

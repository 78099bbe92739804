import type { TableSpec } from '@fleetgraph/paging';

export const WORKSHOP_PAGES = {
  workshops: { defaultSize: 20, maxSize: 100 },
} as const;

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

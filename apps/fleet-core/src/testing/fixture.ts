/**
 * A small dataset with known answers for fleet-core tests.
 *
 *   Acme (org A)                         Globex (org B)
 *   Acme HQ (root, alice member)         Globex Root (carol member)
 *   ├── North (bob member)               └── 5 devices, 1 vehicle
 *   │   └── North Depot: 120 devices, 3 vehicles
 *   └── South: 7 devices, 2 vehicles
 */
import type { Knex } from 'knex';
import { asViewer } from '@fleetgraph/auth';
import { refreshGroupClosure } from '@fleetgraph/visibility';
import { loadTripsFixture } from './fixture-trips';

const uuid = (n: number, prefix = '00000000') =>
  `${prefix}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
export const imei = (n: number) => `35000000${n.toString().padStart(7, '0')}`;

export const F = {
  orgA: uuid(1, 'a0000000'),
  orgB: uuid(2, 'b0000000'),
  alice: { uid: asViewer(uuid(1, 'acc00000')), email: 'alice@acme.example', fullName: 'Alice Admin' },
  bob: { uid: asViewer(uuid(2, 'acc00000')), email: 'bob@acme.example', fullName: 'Bob North' },
  carol: { uid: asViewer(uuid(3, 'acc00000')), email: 'carol@globex.example', fullName: 'Carol Globex' },
  groups: {
    hq: uuid(1, 'a1000000'),
    north: uuid(2, 'a1000000'),
    depot: uuid(3, 'a1000000'),
    south: uuid(4, 'a1000000'),
    globex: uuid(5, 'b1000000'),
  },
  product4g: uuid(1, 'c0000000'),
  productNb: uuid(2, 'c0000000'),
  depotDevices: Array.from({ length: 120 }, (_, i) => imei(i + 1)),
  southDevices: Array.from({ length: 7 }, (_, i) => imei(500 + i)),
  globexDevices: Array.from({ length: 5 }, (_, i) => imei(900 + i)),
  vehicles: {
    depot: [uuid(1, 'e0000000'), uuid(2, 'e0000000'), uuid(3, 'e0000000')],
    south: [uuid(4, 'e0000000'), uuid(5, 'e0000000')],
    globex: uuid(9, 'e0000000'),
  },
};

export async function loadFixture(knex: Knex): Promise<void> {
  await knex('fleet.organizations').insert([
    { id: F.orgA, name: 'Acme' },
    { id: F.orgB, name: 'Globex' },
  ]);
  await knex('fleet.accounts').insert([
    {
      id: F.alice.uid,
      organization_id: F.orgA,
      email: F.alice.email,
      full_name: F.alice.fullName,
      short_name: 'alice',
      phone: '+33100000001',
    },
    {
      id: F.bob.uid,
      organization_id: F.orgA,
      email: F.bob.email,
      full_name: F.bob.fullName,
      short_name: 'bob',
    },
    { id: F.carol.uid, organization_id: F.orgB, email: F.carol.email, full_name: F.carol.fullName },
  ]);
  const g = F.groups;
  await knex('fleet.groups').insert([
    {
      id: g.hq,
      organization_id: F.orgA,
      label: 'Acme HQ',
      hierarchy_level: 'COMPANY',
      owner_id: F.alice.uid,
      tags: ['hq'],
    },
    { id: g.north, organization_id: F.orgA, label: 'North', hierarchy_level: 'REGION', tags: ['region'] },
    { id: g.depot, organization_id: F.orgA, label: 'North Depot', hierarchy_level: 'DEPOT', tags: [] },
    { id: g.south, organization_id: F.orgA, label: 'South', hierarchy_level: 'REGION', tags: ['region'] },
    {
      id: g.globex,
      organization_id: F.orgB,
      label: 'Globex Root',
      hierarchy_level: 'COMPANY',
      owner_id: F.carol.uid,
    },
  ]);
  await knex('fleet.group_parents').insert([
    { group_id: g.north, parent_id: g.hq },
    { group_id: g.south, parent_id: g.hq },
    { group_id: g.depot, parent_id: g.north },
  ]);
  await refreshGroupClosure(knex);
  await knex('fleet.group_accounts').insert([
    { group_id: g.hq, account_id: F.alice.uid },
    { group_id: g.north, account_id: F.bob.uid },
    { group_id: g.globex, account_id: F.carol.uid },
  ]);
  await knex('fleet.products').insert([
    {
      id: F.product4g,
      name: 'TelematicsBox 4G',
      network: 'CELLULAR_4G',
      market: 'EU',
      has_wifi: true,
      has_bluetooth: true,
    },
    {
      id: F.productNb,
      name: 'Tracker NB',
      network: 'NB_IOT',
      market: 'GLOBAL',
      has_wifi: false,
      has_bluetooth: false,
    },
  ]);
  const vehicle = (id: string, org: string, n: number) => ({
    id,
    organization_id: org,
    vin: `VF1MA000${String(n).padStart(9, '0')}`,
    plate: `AB-${String(100 + n)}-CD`,
    make: 'Renault',
    model: 'Master',
    model_year: 2020 + (n % 5),
    fuel_type: n % 2 ? 'DIESEL' : 'ELECTRIC',
    odometer_km: 10_000 * n,
  });
  const allVehicles = [
    ...F.vehicles.depot.map((id, i) => vehicle(id, F.orgA, i + 1)),
    ...F.vehicles.south.map((id, i) => vehicle(id, F.orgA, i + 10)),
    vehicle(F.vehicles.globex, F.orgB, 99),
  ];
  await knex('fleet.vehicles').insert(allVehicles);
  const device = (id: string, org: string, i: number, owner: string, vehicleId: string | null) => ({
    id,
    organization_id: org,
    device_type: i % 3 === 0 ? 'HARDWIRED' : 'OBD_DONGLE',
    serial_number: `SN${id.slice(-6)}`,
    onboarded: i % 2 === 0,
    owner_id: owner,
    product_id: i % 4 === 0 ? F.productNb : F.product4g,
    current_vehicle_id: vehicleId,
    status: i % 5 === 0 ? 'DISCONNECTED' : 'CONNECTED',
    last_connection_reason: 'COLD_BOOT',
  });
  await knex('fleet.devices').insert([
    ...F.depotDevices.map((id, i) => device(id, F.orgA, i, F.bob.uid, i < 3 ? F.vehicles.depot[i]! : null)),
    ...F.southDevices.map((id, i) => device(id, F.orgA, i, F.alice.uid, i < 2 ? F.vehicles.south[i]! : null)),
    ...F.globexDevices.map((id, i) => device(id, F.orgB, i, F.carol.uid, i === 0 ? F.vehicles.globex : null)),
  ]);
  await knex('fleet.group_devices').insert([
    ...F.depotDevices.map((id) => ({ group_id: g.depot, device_id: id })),
    ...F.southDevices.map((id) => ({ group_id: g.south, device_id: id })),
    ...F.globexDevices.map((id) => ({ group_id: g.globex, device_id: id })),
  ]);
  await knex('fleet.group_vehicles').insert([
    ...F.vehicles.depot.map((id) => ({ group_id: g.depot, vehicle_id: id })),
    ...F.vehicles.south.map((id) => ({ group_id: g.south, vehicle_id: id })),
    { group_id: g.globex, vehicle_id: F.vehicles.globex },
  ]);
  await knex('fleet.device_vehicle_sessions').insert([
    {
      id: uuid(1, 'd5000000'),
      device_id: F.depotDevices[0],
      vehicle_id: F.vehicles.depot[0],
      started_at: new Date('2026-01-01T00:00:00Z'),
    },
    {
      id: uuid(2, 'd5000000'),
      device_id: F.depotDevices[0],
      vehicle_id: F.vehicles.south[0],
      started_at: new Date('2025-06-01T00:00:00Z'),
      ended_at: new Date('2025-12-31T00:00:00Z'),
    },
  ]);
  await loadTripsFixture(knex);
}

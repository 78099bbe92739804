/**
 * A small dataset over fleet-core's test fixture (facts `F`): transactions of Acme's depot and
 * south vehicles and of Globex, some honest and some with planted problems, detection run.
 */
import type { Knex } from 'knex';
import { addTransactions, type TxInput } from './helpers';

export const NOW = new Date('2026-04-15T00:00:00.000Z');
const MIN = 60_000;
const DAY = 86_400_000;

/** End of depot trip i of the fixture (30 daily trips from 2026-03-01 08:00, trip i lasts 30+i min). */
export const depotTripEnd = (F: any, i: number) =>
  new Date(F.FIRST_TRIP.getTime() + i * DAY + (30 + i) * MIN);
export const depotTripEndPos = (i: number) => ({ lat: 53.6, lon: 10.05 + i / 1000 });

export async function loadDataset(knex: Knex, F: any) {
  const depot = {
    organizationId: F.orgA,
    vehicleId: F.vehicles.depot[0],
    deviceId: F.depotDevices[0],
    driverId: F.drivers.anna,
    groupId: F.groups.depot,
  };
  const at = (i: number, minutes = 5) => new Date(depotTripEnd(F, i).getTime() + minutes * MIN);
  const station = (i: number) => ({
    stationLatitude: depotTripEndPos(i).lat,
    stationLongitude: depotTripEndPos(i).lon,
  });
  const list: TxInput[] = [
    // 0 honest first fill
    { ...depot, transactedAt: at(0), quantity: 20, odometerKm: 10_000, ...station(0) },
    // 1 honest: 43 km since, 25 L
    { ...depot, transactedAt: at(2), quantity: 25, odometerKm: 10_070, ...station(2) },
    // 2 QUANTITY_ABOVE_CAPACITY (+ REFILL_TOO_SOON)
    { ...depot, transactedAt: at(5), quantity: 200, odometerKm: 10_140, ...station(5) },
    // 3 VEHICLE_NOT_AT_STATION (Munich)
    {
      ...depot,
      transactedAt: at(8),
      quantity: 35,
      odometerKm: 10_220,
      stationLatitude: 48.137,
      stationLongitude: 11.575,
      stationCity: 'München',
      stationPostalCode: '80331',
    },
    // 4 WRONG_ENERGY gasoline into the diesel van
    {
      ...depot,
      transactedAt: at(11),
      quantity: 35,
      odometerKm: 10_310,
      energyType: 'GASOLINE',
      productCategory: 'GASOLINE',
      grossUnitPrice: 1.8,
      ...station(11),
    },
    // 5 ODOMETER_BACKWARDS
    { ...depot, transactedAt: at(14), quantity: 40, odometerKm: 9_000, ...station(14) },
    // 6 honest after the wrong odometer (reference skips it)
    { ...depot, transactedAt: at(17), quantity: 40, odometerKm: 10_500, ...station(17) },
    // 7 IMPOSSIBLE_DISTANCE
    { ...depot, transactedAt: at(18), quantity: 20, odometerKm: 15_000, ...station(18) },
    // 8 honest
    { ...depot, transactedAt: at(21), quantity: 40, odometerKm: 10_640, ...station(21) },
    // 9 REFILL_TOO_SOON: 80 L one trip (41 km) after the previous fill
    { ...depot, transactedAt: at(22), quantity: 80, odometerKm: 10_681, ...station(22) },
    // 10 no position near (before the first trip): inconclusive, pending
    {
      ...depot,
      transactedAt: new Date('2026-02-10T12:00:00Z'),
      quantity: 30,
      stationCity: 'Kiel',
      stationPostalCode: '24103',
      stationLatitude: 54.32,
      stationLongitude: 10.13,
    },
    // 11 honest AdBlue purchase, no energy rules
    {
      ...depot,
      transactedAt: at(23),
      quantity: 10,
      energyType: 'NONE',
      productCategory: 'ADBLUE',
      transactionType: 'PURCHASE',
      grossUnitPrice: 0.9,
      ...station(23),
    },
  ];
  // Prices: 6 honest DIESEL around 1.70 in area 20, week of 2026-03-23, plus one at 2.60.
  const week = new Date('2026-03-24T10:00:00Z');
  for (let k = 0; k < 6; k++)
    list.push({
      organizationId: F.orgA,
      vehicleId: F.vehicles.depot[2],
      groupId: F.groups.depot,
      transactedAt: new Date(week.getTime() + k * 3600_000),
      quantity: 10,
      grossUnitPrice: 1.68 + k * 0.01,
      stationLatitude: null,
      stationLongitude: null,
      externalSource: 'OTHERCARD',
    });
  // 18: UNIT_PRICE_OUTLIER
  list.push({
    organizationId: F.orgA,
    vehicleId: F.vehicles.depot[2],
    groupId: F.groups.depot,
    transactedAt: new Date(week.getTime() + 7 * 3600_000),
    quantity: 10,
    grossUnitPrice: 2.6,
    stationLatitude: null,
    stationLongitude: null,
    externalSource: 'OTHERCARD',
  });
  // 19: WRONG_ENERGY diesel into the electric depot vehicle 2 (no device, no driver)
  list.push({
    organizationId: F.orgA,
    vehicleId: F.vehicles.depot[1],
    groupId: F.groups.depot,
    transactedAt: new Date('2026-03-20T09:00:00Z'),
    quantity: 30,
    stationLatitude: null,
    stationLongitude: null,
    stationCity: 'Lübeck',
    stationPostalCode: '23552',
  });
  // 20: honest charge of the electric vehicle
  list.push({
    organizationId: F.orgA,
    vehicleId: F.vehicles.depot[1],
    groupId: F.groups.depot,
    transactedAt: new Date('2026-03-21T09:00:00Z'),
    quantity: 50,
    quantityUnit: 'KWH',
    energyType: 'ELECTRIC',
    productCategory: 'ELECTRICITY',
    transactionType: 'CHARGE',
    grossUnitPrice: 0.45,
    stationLatitude: null,
    stationLongitude: null,
  });
  // 20b: a 400 kWh charge of the electric vehicle (battery default 150 kWh)
  list.push({
    organizationId: F.orgA,
    vehicleId: F.vehicles.depot[1],
    groupId: F.groups.depot,
    transactedAt: new Date('2026-03-25T09:00:00Z'),
    quantity: 400,
    quantityUnit: 'KWH',
    energyType: 'ELECTRIC',
    productCategory: 'ELECTRICITY',
    transactionType: 'CHARGE',
    grossUnitPrice: 0.45,
    stationLatitude: null,
    stationLongitude: null,
  });
  // 21: South vehicle 2 (diesel): 300 L, seen by alice, not by bob
  list.push({
    organizationId: F.orgA,
    vehicleId: F.vehicles.south[1],
    groupId: F.groups.south,
    driverId: F.drivers.dieter,
    transactedAt: new Date('2026-03-10T09:00:00Z'),
    quantity: 300,
    stationLatitude: null,
    stationLongitude: null,
    stationCity: 'Bremen',
    stationPostalCode: '28195',
    externalSource: 'SOUTHCARD',
  });
  // 22: Globex vehicle: 400 L (carol only)
  list.push({
    organizationId: F.orgB,
    vehicleId: F.vehicles.globex,
    deviceId: F.globexDevices[0],
    groupId: F.groups.globex,
    driverId: F.drivers.greta,
    transactedAt: new Date('2026-03-11T09:00:00Z'),
    quantity: 400,
    stationLatitude: null,
    stationLongitude: null,
    stationCity: 'Berlin',
    stationPostalCode: '10115',
    externalSource: 'GLOBEXCARD',
  });
  return addTransactions(knex, list, NOW);
}

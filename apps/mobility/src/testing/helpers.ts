/** Test helpers: transactions written straight into the mobility schema (detection run on them). */
import type { Knex } from 'knex';
import { detectTransactions } from '../domain/detection/engine';

let counter = 0;

export interface TxInput {
  organizationId: string;
  vehicleId?: string | null;
  deviceId?: string | null;
  driverId?: string | null;
  groupId?: string | null;
  transactedAt: Date;
  quantity?: number;
  quantityUnit?: string;
  energyType?: string;
  productCategory?: string;
  transactionType?: string;
  odometerKm?: number | null;
  grossUnitPrice?: number | null;
  currency?: string;
  stationLatitude?: number | null;
  stationLongitude?: number | null;
  stationCity?: string | null;
  stationPostalCode?: string | null;
  externalSource?: string | null;
  externalId?: string | null;
  plantedFraud?: string | null;
}

export function txRow(t: TxInput, now: Date): Record<string, unknown> {
  counter++;
  const price = t.grossUnitPrice === undefined ? 1.7 : t.grossUnitPrice;
  const quantity = t.quantity ?? 40;
  return {
    organization_id: t.organizationId,
    transacted_at: t.transactedAt,
    quantity,
    quantity_unit: t.quantityUnit ?? 'L',
    odometer_km: t.odometerKm ?? null,
    energy_type: t.energyType ?? 'DIESEL',
    product_category: t.productCategory ?? 'DIESEL',
    transaction_type: t.transactionType ?? 'REFILL',
    gross_unit_price: price,
    net_unit_price: price == null ? null : Math.round((price / 1.2) * 1000) / 1000,
    gross_total: price == null ? null : Math.round(price * quantity * 100) / 100,
    net_total: price == null ? null : Math.round((price / 1.2) * quantity * 100) / 100,
    currency: t.currency ?? 'EUR',
    station_latitude: t.stationLatitude === undefined ? 53.6 : t.stationLatitude,
    station_longitude: t.stationLongitude === undefined ? 10.05 : t.stationLongitude,
    station_city: t.stationCity === undefined ? 'Hamburg' : t.stationCity,
    station_postal_code: t.stationPostalCode === undefined ? '20095' : t.stationPostalCode,
    source: 'FUEL_CARD',
    external_source: t.externalSource === undefined ? 'TESTCARD' : t.externalSource,
    external_id: t.externalId === undefined ? `T-${counter}` : t.externalId,
    vehicle_id: t.vehicleId ?? null,
    device_id: t.deviceId ?? null,
    driver_id: t.driverId ?? null,
    group_id: t.groupId ?? null,
    planted_fraud: t.plantedFraud ?? null,
    created_at: now,
    updated_at: now,
  };
}

/** Inserts transactions and runs detection on them; returns their ids in input order. */
export async function addTransactions(
  knex: Knex,
  inputs: TxInput[],
  now: Date,
  detect = true,
): Promise<string[]> {
  const rows = await knex('mobility.transactions')
    .insert(inputs.map((t) => txRow(t, now)))
    .returning('id');
  const ids = rows.map((r: { id: string }) => r.id);
  if (detect) await detectTransactions(knex, ids, { now });
  return ids;
}

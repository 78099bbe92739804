/**
 * `npm run import -- mobility transactions <file> [--format=csv|json] [--mapping=Their Header:ourColumn,...]
 *   [--delimiter=;] [--organization=<uuid>] [--external-source=<name>]`
 *
 * CSV layout (header row required; columns in any order; see the README):
 *   transactedAt*, quantity*, quantityUnit*, productCategory*, transactionType*, energyType,
 *   vehicleId | vehicleVin | vehiclePlate | deviceImei (at least one*), driverId, driverLabel,
 *   odometerKm, productLabel, netUnitPrice, grossUnitPrice, netTotal, grossTotal, currency,
 *   stationName, stationBrand, stationCity, stationPostalCode, stationLatitude, stationLongitude,
 *   source, externalSource, externalId, notes
 * JSON: an array of objects with the same keys, or one object per line (NDJSON, streamed).
 *
 * Streaming and all-or-nothing: pass 1 streams the file and validates every row (problems listed
 * by line and column, or JSON path), holding only the fleet index and the external ids seen;
 * pass 2 streams it again and inserts in batches inside one transaction. Detection then runs on
 * the imported rows (by import id, in chunks).
 */
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { parse } from 'csv-parse';
import type { Knex } from 'knex';
import type { ImportOutcome } from '@fleetgraph/subgraph-kit';
import { detectTransactions } from '../domain/detection/engine';
import { deviceAt, loadFleetIndex, plateKey, type FleetIndex } from './fleet-index';

export const COLUMNS = [
  'transactedAt',
  'quantity',
  'quantityUnit',
  'productCategory',
  'transactionType',
  'energyType',
  'vehicleId',
  'vehicleVin',
  'vehiclePlate',
  'deviceImei',
  'driverId',
  'driverLabel',
  'odometerKm',
  'productLabel',
  'netUnitPrice',
  'grossUnitPrice',
  'netTotal',
  'grossTotal',
  'currency',
  'stationName',
  'stationBrand',
  'stationCity',
  'stationPostalCode',
  'stationLatitude',
  'stationLongitude',
  'source',
  'externalSource',
  'externalId',
  'notes',
] as const;
type Column = (typeof COLUMNS)[number];

const ENUMS: Partial<Record<Column, string[]>> = {
  quantityUnit: ['L', 'KWH', 'KG', 'GAL_US', 'GAL_UK', 'UNIT'],
  productCategory: [
    'DIESEL',
    'PREMIUM_DIESEL',
    'GASOLINE',
    'PREMIUM_GASOLINE',
    'LPG',
    'CNG',
    'HYDROGEN',
    'ELECTRICITY',
    'ADBLUE',
    'LUBRICANT',
    'CAR_WASH',
    'SHOP',
    'SERVICES',
    'OTHER',
  ],
  transactionType: ['REFILL', 'CHARGE', 'PURCHASE', 'REFUND', 'CORRECTION'],
  energyType: ['DIESEL', 'GASOLINE', 'ELECTRIC', 'LPG', 'CNG', 'HYDROGEN', 'NONE'],
  source: ['TELEMATICS', 'FUEL_CARD', 'CHARGE_POINT_OPERATOR', 'MANUAL', 'IMPORT'],
};
const NUMBERS: Column[] = [
  'quantity',
  'netUnitPrice',
  'grossUnitPrice',
  'netTotal',
  'grossTotal',
  'stationLatitude',
  'stationLongitude',
];
const REQUIRED: Column[] = ['transactedAt', 'quantity', 'quantityUnit', 'productCategory', 'transactionType'];

/** Energy type implied by a product category. */
export const ENERGY_OF: Record<string, string> = {
  DIESEL: 'DIESEL',
  PREMIUM_DIESEL: 'DIESEL',
  GASOLINE: 'GASOLINE',
  PREMIUM_GASOLINE: 'GASOLINE',
  LPG: 'LPG',
  CNG: 'CNG',
  HYDROGEN: 'HYDROGEN',
  ELECTRICITY: 'ELECTRIC',
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})$/;
const MAX_PROBLEMS = 1000;

export interface ImportContext {
  log(line: string): void;
  now: Date;
  options: Record<string, string>;
}

type Raw = Partial<Record<Column, unknown>>;
interface Located {
  raw: Raw;
  /** where a column's value is: "line 12, column 3" / "$[4].quantity" */
  at(column: Column | null): string;
}

/** Streams the records of the file, each with its location. */
async function* records(file: string, options: Record<string, string>): AsyncGenerator<Located> {
  const format = options.format ?? (file.toLowerCase().endsWith('.csv') ? 'csv' : 'json');
  if (format === 'csv') {
    const mapping = parseMapping(options.mapping);
    const parser = createReadStream(file).pipe(
      parse({
        delimiter: options.delimiter ?? ',',
        bom: true,
        relax_column_count: true,
        trim: true,
        info: true,
      }),
    );
    let header: Array<Column | null> | null = null;
    for await (const { record, info } of parser as AsyncIterable<{
      record: string[];
      info: { lines: number };
    }>) {
      if (!header) {
        header = record.map((h) => {
          const ours = mapping.get(h) ?? h;
          return (COLUMNS as readonly string[]).includes(ours) ? (ours as Column) : null;
        });
        const unknown = record.filter((_, i) => header![i] === null);
        if (unknown.length > 0) {
          yield {
            raw: {},
            at: () => `line ${info.lines}`,
            ...{
              headerProblem: `unknown columns ${unknown.map((u) => JSON.stringify(u)).join(', ')} (map them with --mapping=Their Header:ourColumn)`,
            },
          } as Located;
        }
        continue;
      }
      const raw: Raw = {};
      const h = header;
      record.forEach((value, i) => {
        const column = h[i];
        if (column && value !== '') raw[column] = value;
      });
      const line = info.lines;
      yield {
        raw,
        at: (column) =>
          column ? `line ${line}, column ${h.indexOf(column) + 1} (${column})` : `line ${line}`,
      };
    }
    return;
  }
  if (format !== 'json') throw new Error(`--format must be csv or json (got ${format})`);
  // JSON: NDJSON is streamed; an array is read whole (keep arrays for small files).
  const first = await firstChar(file);
  if (first === '[') {
    const size = (await stat(file)).size;
    if (size > 256 * 1024 * 1024)
      throw new Error('JSON arrays over 256 MB: use one object per line (NDJSON)');
    const { readFile } = await import('node:fs/promises');
    const data = JSON.parse(await readFile(file, 'utf8')) as unknown[];
    for (let i = 0; i < data.length; i++) {
      const raw = (data[i] ?? {}) as Raw;
      yield { raw, at: (column) => (column ? `$[${i}].${column}` : `$[${i}]`) };
    }
    return;
  }
  let line = 0;
  for await (const text of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    line++;
    if (text.trim() === '') continue;
    let raw: Raw;
    try {
      raw = JSON.parse(text) as Raw;
    } catch (error) {
      const n = line;
      yield {
        raw: {},
        at: () => `line ${n}`,
        ...{ headerProblem: `not JSON: ${(error as Error).message}` },
      } as Located;
      continue;
    }
    const n = line;
    yield { raw, at: (column) => (column ? `line ${n}, ${column}` : `line ${n}`) };
  }
}

async function firstChar(file: string): Promise<string> {
  for await (const chunk of createReadStream(file, { start: 0, end: 255 })) {
    const s = String(chunk).trimStart();
    if (s) return s[0]!;
  }
  return '';
}

export function parseMapping(text: string | undefined): Map<string, string> {
  const map = new Map<string, string>();
  if (!text) return map;
  for (const pair of text.split(',')) {
    const i = pair.lastIndexOf(':');
    if (i <= 0) throw new Error(`--mapping: "${pair}" is not "Their Header:ourColumn"`);
    const ours = pair.slice(i + 1).trim();
    if (!(COLUMNS as readonly string[]).includes(ours))
      throw new Error(`--mapping: unknown column ${ours}; columns: ${COLUMNS.join(', ')}`);
    map.set(pair.slice(0, i).trim(), ours);
  }
  return map;
}

interface Row {
  [column: string]: unknown;
}

/** Validates one record and resolves it against the fleet; returns the row to insert or problems. */
export function validateRecord(
  located: Located,
  fleet: FleetIndex,
  options: { organizationId?: string; externalSource?: string },
): { row?: Row; problems: string[] } {
  const { raw, at } = located;
  const problems: string[] = [];
  const str = (c: Column) => (raw[c] == null ? null : String(raw[c]).trim() || null);
  for (const c of REQUIRED) if (str(c) == null) problems.push(`${at(c)}: ${c} is required`);
  const numbers: Partial<Record<Column, number>> = {};
  for (const c of NUMBERS) {
    const v = str(c);
    if (v == null) continue;
    const n = Number(v.replace(',', '.'));
    if (!Number.isFinite(n)) problems.push(`${at(c)}: ${c} must be a number (got ${JSON.stringify(v)})`);
    else numbers[c] = n;
  }
  if (numbers.quantity != null && numbers.quantity < 0)
    problems.push(`${at('quantity')}: quantity must not be negative`);
  if (numbers.stationLatitude != null && Math.abs(numbers.stationLatitude) > 90)
    problems.push(`${at('stationLatitude')}: stationLatitude must be between -90 and 90`);
  if (numbers.stationLongitude != null && Math.abs(numbers.stationLongitude) > 180)
    problems.push(`${at('stationLongitude')}: stationLongitude must be between -180 and 180`);
  let odometer: number | null = null;
  if (str('odometerKm') != null) {
    odometer = Number(str('odometerKm'));
    if (!Number.isInteger(odometer) || odometer < 0 || odometer > 10_000_000) {
      problems.push(`${at('odometerKm')}: odometerKm must be a whole number of km`);
      odometer = null;
    }
  }
  for (const [c, values] of Object.entries(ENUMS) as Array<[Column, string[]]>) {
    const v = str(c);
    if (v != null && !values.includes(v.toUpperCase()))
      problems.push(`${at(c)}: ${c} must be one of ${values.join(', ')} (got ${JSON.stringify(v)})`);
  }
  let transactedAt: Date | null = null;
  const t = str('transactedAt');
  if (t != null) {
    transactedAt = new Date(t);
    if (!ISO.test(t) || Number.isNaN(transactedAt.getTime())) {
      problems.push(
        `${at('transactedAt')}: transactedAt must be an ISO 8601 date-time with a time zone (got ${JSON.stringify(t)})`,
      );
      transactedAt = null;
    }
  }
  const currency = str('currency');
  if (currency != null && !/^[A-Z]{3}$/.test(currency))
    problems.push(`${at('currency')}: currency must be an ISO 4217 code like EUR`);
  // The vehicle: id, then VIN, then plate, then the device's vehicle.
  const org = options.organizationId;
  const inOrg = <V extends { organization_id: string }>(list: V[] | undefined) =>
    (list ?? []).filter((v) => !org || v.organization_id === org);
  let vehicle: { id: string; organization_id: string } | undefined;
  let deviceId: string | null = null;
  const vid = str('vehicleId');
  const vin = str('vehicleVin');
  const plate = str('vehiclePlate');
  const imei = str('deviceImei');
  if (vid != null) {
    vehicle = UUID.test(vid) ? fleet.vehicleById.get(vid.toLowerCase()) : undefined;
    if (!vehicle || (org && vehicle.organization_id !== org))
      problems.push(`${at('vehicleId')}: no vehicle ${vid}`);
  } else if (vin != null) {
    const found = inOrg(fleet.vehiclesByVin.get(vin.toUpperCase()));
    if (found.length !== 1)
      problems.push(
        `${at('vehicleVin')}: ${found.length === 0 ? 'no vehicle has' : 'several vehicles have'} VIN ${vin}`,
      );
    vehicle = found[0];
  } else if (plate != null) {
    const found = inOrg(fleet.vehiclesByPlate.get(plateKey(plate)));
    if (found.length !== 1)
      problems.push(
        `${at('vehiclePlate')}: ${found.length === 0 ? 'no vehicle has' : 'several vehicles have'} plate ${plate}${found.length > 1 ? ' (give --organization)' : ''}`,
      );
    vehicle = found[0];
  } else if (imei != null) {
    const device = fleet.deviceById.get(imei);
    if (!device || (org && device.organization_id !== org))
      problems.push(`${at('deviceImei')}: no device ${imei}`);
    else {
      deviceId = device.id;
      if (device.current_vehicle_id) vehicle = fleet.vehicleById.get(device.current_vehicle_id);
    }
  } else {
    problems.push(`${at(null)}: one of vehicleId, vehicleVin, vehiclePlate or deviceImei is required`);
  }
  if (imei != null && deviceId == null && fleet.deviceById.has(imei)) deviceId = imei;
  let driverId: string | null = null;
  const did = str('driverId');
  const organizationId =
    vehicle?.organization_id ?? (deviceId ? fleet.deviceById.get(deviceId)?.organization_id : undefined);
  if (did != null) {
    const driver = UUID.test(did) ? fleet.driverById.get(did.toLowerCase()) : undefined;
    if (!driver || driver.organization_id !== organizationId)
      problems.push(`${at('driverId')}: no driver ${did} in the vehicle's organization`);
    else driverId = driver.id;
  } else if (str('driverLabel') != null) {
    const found = (fleet.driversByLabel.get(str('driverLabel')!.toLowerCase()) ?? []).filter(
      (d) => d.organization_id === organizationId,
    );
    if (found.length === 1) driverId = found[0]!.id;
  }
  if (problems.length > 0 || !organizationId || !transactedAt) return { problems };
  if (vehicle && !deviceId) deviceId = deviceAt(fleet, vehicle.id, transactedAt);
  const category = str('productCategory')!.toUpperCase();
  const upper = (c: Column) => str(c)?.toUpperCase() ?? null;
  return {
    problems,
    row: {
      organization_id: organizationId,
      transacted_at: transactedAt,
      quantity: numbers.quantity,
      quantity_unit: upper('quantityUnit'),
      odometer_km: odometer,
      energy_type: upper('energyType') ?? ENERGY_OF[category] ?? 'NONE',
      product_category: category,
      transaction_type: upper('transactionType'),
      product_label: str('productLabel'),
      vehicle_plate: plate,
      vehicle_vin: vin,
      device_imei: imei ?? deviceId,
      driver_label: str('driverLabel'),
      net_unit_price: numbers.netUnitPrice ?? null,
      gross_unit_price: numbers.grossUnitPrice ?? null,
      net_total: numbers.netTotal ?? null,
      gross_total: numbers.grossTotal ?? null,
      currency,
      station_name: str('stationName'),
      station_brand: str('stationBrand'),
      station_city: str('stationCity'),
      station_postal_code: str('stationPostalCode'),
      station_latitude: numbers.stationLatitude ?? null,
      station_longitude: numbers.stationLongitude ?? null,
      source: upper('source') ?? 'FUEL_CARD',
      external_source: str('externalSource') ?? options.externalSource ?? null,
      external_id: str('externalId'),
      notes: str('notes'),
      vehicle_id: vehicle?.id ?? null,
      device_id: deviceId,
      driver_id: driverId,
      group_id: vehicle
        ? (fleet.groupOfVehicle.get(vehicle.id) ?? null)
        : deviceId
          ? (fleet.groupOfDevice.get(deviceId) ?? null)
          : null,
    },
  };
}

class Rollback extends Error {}

export async function importTransactions(
  knex: Knex,
  file: string,
  context: ImportContext,
): Promise<ImportOutcome> {
  const options = context.options;
  const organizationId = options.organization;
  if (organizationId && !UUID.test(organizationId))
    return { ok: false, problems: ['--organization must be a uuid'] };
  const fleet = await loadFleetIndex(knex, organizationId);
  const resolve = { organizationId, externalSource: options['external-source'] };
  // Pass 1: validate everything. External ids go to a temporary table (bounded memory), checked
  // for repeats and for earlier imports in SQL; the transaction is rolled back: nothing written.
  const started = performance.now();
  const problems: string[] = [];
  let total = 0;
  await knex
    .transaction(async (trx) => {
      await trx.raw(
        'create temporary table import_keys (seq int, place text, org uuid, src text, ext text) on commit drop',
      );
      let keys: Array<{ seq: number; place: string; org: string; src: string; ext: string }> = [];
      const flushKeys = async () => {
        if (keys.length > 0) await trx('import_keys').insert(keys);
        keys = [];
      };
      try {
        for await (const located of records(file, options)) {
          const headerProblem = (located as Located & { headerProblem?: string }).headerProblem;
          if (headerProblem) {
            problems.push(`${located.at(null)}: ${headerProblem}`);
            continue;
          }
          total++;
          const { row, problems: found } = validateRecord(located, fleet, resolve);
          if (problems.length < MAX_PROBLEMS)
            problems.push(...found.slice(0, MAX_PROBLEMS - problems.length));
          else if (found.length > 0) problems.push('...');
          if (row?.external_id && row.external_source) {
            keys.push({
              seq: total,
              place: located.at('externalId'),
              org: row.organization_id as string,
              src: row.external_source as string,
              ext: row.external_id as string,
            });
            if (keys.length >= 5000) await flushKeys();
          }
          if (problems.length >= MAX_PROBLEMS + 1) break;
        }
        await flushKeys();
      } catch (error) {
        problems.push(`${file}: ${(error as Error).message}`);
      }
      const repeats = await trx.raw(
        `select place, ext, first_place from (
           select place, ext, seq, row_number() over w as n, first_value(place) over w as first_place
             from import_keys window w as (partition by org, src, ext order by seq)) k
          where n > 1 order by seq limit ?`,
        [MAX_PROBLEMS],
      );
      for (const r of repeats.rows)
        problems.push(`${r.place}: externalId ${r.ext} repeats ${String(r.first_place).split(',')[0]}`);
      const earlier = await trx.raw(
        `select k.place, k.src, k.ext from import_keys k
           join mobility.transactions t on t.organization_id = k.org and t.external_source = k.src and t.external_id = k.ext
          order by k.seq limit ?`,
        [MAX_PROBLEMS],
      );
      for (const r of earlier.rows)
        problems.push(
          `${String(r.place).split(',')[0]}: externalId ${r.ext} of ${r.src} was already imported`,
        );
      throw new Rollback();
    })
    .catch((error) => {
      if (!(error instanceof Rollback)) throw error;
    });
  if (total === 0 && problems.length === 0) problems.push(`${file}: no transactions`);
  if (problems.length > 0) return { ok: false, problems };
  // Pass 2: insert in one transaction.
  const validated = performance.now();
  const importId = randomUUID();
  let inserted = 0;
  await knex.transaction(async (trx) => {
    let batch: Row[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      await trx('mobility.transactions').insert(batch);
      inserted += batch.length;
      batch = [];
      if (inserted % 100_000 === 0) context.log(`mobility: ${inserted} transactions written`);
    };
    for await (const located of records(file, options)) {
      const { row } = validateRecord(located, fleet, resolve);
      if (!row) throw new Error(`${located.at(null)}: changed between the two passes`);
      batch.push({ ...row, import_id: importId, created_at: context.now, updated_at: context.now });
      if (batch.length >= 1000) await flush();
    }
    await flush();
  });
  // Detection on what was imported, in chunks of ids.
  const written = performance.now();
  const detection = await detectImport(knex, importId, context.now);
  const ms = (a: number, b: number) => Math.round(b - a);
  return {
    ok: true,
    summary: {
      transactions: inserted,
      ...prefixed(detection),
      validate_ms: ms(started, validated),
      insert_ms: ms(validated, written),
      detection_ms: ms(written, performance.now()),
    },
  };
}

const prefixed = (s: Record<string, number>) =>
  Object.fromEntries(Object.entries(s).map(([k, v]) => [`detection_${k}`, v]));

/**
 * Runs detection over the transactions of one import, in chunks in time order (bounded memory;
 * a chunk then spans few weeks, so its price samples are few).
 */
export async function detectImport(knex: Knex, importId: string, now: Date) {
  const total = { transactions: 0, detected: 0, resolved: 0, pending: 0 };
  let after: [Date, string] | null = null;
  for (;;) {
    const query = knex('mobility.transactions')
      .select('id', 'transacted_at')
      .where('import_id', importId)
      .orderBy([{ column: 'transacted_at' }, { column: 'id' }])
      .limit(2000);
    if (after) query.whereRaw('(transacted_at, id) > (?, ?)', after);
    const rows = (await query) as Array<{ id: string; transacted_at: Date }>;
    if (rows.length === 0) break;
    const last = rows[rows.length - 1]!;
    after = [last.transacted_at, last.id];
    const s = await detectTransactions(
      knex,
      rows.map((r) => r.id),
      { now },
    );
    total.transactions += s.transactions;
    total.detected += s.detected;
    total.resolved += s.resolved;
    total.pending += s.pending;
  }
  return total;
}

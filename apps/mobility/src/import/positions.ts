/**
 * `npm run import -- mobility positions <file.csv>`: vehicle positions delivered late (provider
 * backfill, a device that was offline). CSV header: vehicle,recordedAt,latitude,longitude[,source],
 * the vehicle by id, VIN or plate (a `vehicleId` column of ids is read the same way).
 * All-or-nothing; then the position rule is re-evaluated for the vehicles and times concerned.
 */
import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import type { Knex } from 'knex';
import type { ImportOutcome } from '@fleetgraph/subgraph-kit';
import { resolveVehicleReferences } from '@fleetgraph/visibility';
import { reevaluate } from '../domain/detection/engine';

export interface LatePosition {
  vehicleId: string;
  recordedAt: Date;
  latitude: number;
  longitude: number;
  source?: string;
}

export async function importPositions(
  knex: Knex,
  file: string,
  context: { now: Date; options: Record<string, string> },
): Promise<ImportOutcome> {
  const problems: string[] = [];
  const positions: LatePosition[] = [];
  const parser = createReadStream(file).pipe(parse({ bom: true, trim: true, info: true, columns: true }));
  const read: Array<{ position: LatePosition; reference: string; column: string; line: number }> = [];
  for await (const { record, info } of parser as AsyncIterable<{
    record: Record<string, string>;
    info: { lines: number };
  }>) {
    const at = (c: string) => `line ${info.lines}, ${c}`;
    const column = record.vehicle !== undefined ? 'vehicle' : 'vehicleId';
    const p = {
      vehicleId: '',
      recordedAt: new Date(record.recordedAt ?? ''),
      latitude: Number(record.latitude),
      longitude: Number(record.longitude),
      source: record.source || 'BACKFILL',
    };
    if (record.vehicle !== undefined && record.vehicleId !== undefined)
      problems.push(
        `${at('vehicle')}: name the vehicle once, in \`vehicle\` (id, VIN or plate) or \`vehicleId\``,
      );
    if (Number.isNaN(p.recordedAt.getTime())) problems.push(`${at('recordedAt')}: not an ISO 8601 date-time`);
    if (!(Math.abs(p.latitude) <= 90)) problems.push(`${at('latitude')}: must be between -90 and 90`);
    if (!(Math.abs(p.longitude) <= 180)) problems.push(`${at('longitude')}: must be between -180 and 180`);
    read.push({ position: p, reference: record.vehicle ?? record.vehicleId ?? '', column, line: info.lines });
  }
  // Every vehicle named the way every importer names one: id, VIN or plate, in one statement.
  const vehicles = await resolveVehicleReferences(
    knex,
    read.map((r) => r.reference),
  );
  for (const { position, reference, column, line } of read) {
    const answer = vehicles.get(reference);
    if (answer && 'found' in answer) positions.push({ ...position, vehicleId: answer.found.id });
    else
      problems.push(`line ${line}, ${column}: ${answer?.problem ?? 'expected a vehicle id, VIN or plate'}`);
  }
  if (problems.length > 0) return { ok: false, problems };
  const summary = await addLatePositions(knex, positions, context.now);
  return { ok: true, summary };
}

/** Stores late positions and re-evaluates the position rule where they can change a verdict. */
export async function addLatePositions(knex: Knex, positions: LatePosition[], now: Date) {
  if (positions.length === 0) return { positions: 0, transactions: 0, detected: 0, resolved: 0, pending: 0 };
  await knex.transaction(async (trx) => {
    for (let i = 0; i < positions.length; i += 1000)
      await trx('mobility.late_positions').insert(
        positions.slice(i, i + 1000).map((p) => ({
          vehicle_id: p.vehicleId,
          recorded_at: p.recordedAt,
          latitude: p.latitude,
          longitude: p.longitude,
          source: p.source ?? 'BACKFILL',
          imported_at: now,
        })),
      );
  });
  const times = positions.map((p) => p.recordedAt.getTime());
  const result = await reevaluate(knex, {
    now,
    vehicleIds: [...new Set(positions.map((p) => p.vehicleId))],
    from: new Date(Math.min(...times)),
    to: new Date(Math.max(...times)),
  });
  return { positions: positions.length, ...result };
}

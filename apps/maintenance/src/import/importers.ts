/**
 * `npm run import -- maintenance <templates|thresholds|history> <file.json>`.
 * Each importer reads the whole file, lists every problem by JSON path (`templates[2].interval:
 * ...`), and writes nothing unless there is none; writes happen in one transaction.
 *
 *   templates:  { "templates": [{ "id"?, "organizationId"? (null/absent = global), "description",
 *                 "system", "externalId"?, "interval": { "distanceKm"?, "months"?, "days"? },
 *                 "vehicleTypes"?, "fuelTypes"? }] }            (marked fromExternalService)
 *   thresholds: { "organizationId" (null = the global defaults), "thresholds": [{ "code",
 *                 "criticality" (1-9), "remainingDistance"?, "remainingDuration"?, "description" }] }
 *               replaces that organization's whole set
 *   history:    { "organizationId", "history": [{ "id"?, "vehicle" (id, VIN or plate of a vehicle
 *                 of the organization), "template" (id of a global or the organization's
 *                 template), "mileage" (km), "date" (ISO 8601), "notes"? }] }
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Knex } from 'knex';
import { refreshUpcoming } from '../data/upcoming-store';
import type { ImportOutcome } from '@fleetgraph/subgraph-kit';
import { SYSTEMS } from '../../migrations/20261123_001_maintenance';
import { resolveVehicleReferences } from '@fleetgraph/visibility';
import { isUuid } from '../reader';

type Kind = 'templates' | 'thresholds' | 'history';
type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isInt = (v: unknown, min: number, max = 10_000_000): v is number =>
  Number.isInteger(v) && (v as number) >= min && (v as number) <= max;
const text = (v: unknown, max: number) =>
  typeof v === 'string' && v.trim().length > 0 && v.length <= max && !v.includes('\u0000');

export async function importFile(
  kind: Kind,
  knex: Knex,
  file: string,
  context: { log(line: string): void; now: Date; options: Record<string, string> },
): Promise<ImportOutcome> {
  let data: unknown;
  try {
    data = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    return { ok: false, problems: [`$: not a readable JSON file (${(error as Error).message})`] };
  }
  const outcome = await importData(kind, knex, data);
  // The kept upcoming work follows the import now, not at the next read (data/upcoming-store.ts).
  if (outcome.ok && kind !== 'thresholds') await refreshUpcoming(knex, context.now, 'changes');
  return outcome;
}

export async function importData(kind: Kind, knex: Knex, data: unknown): Promise<ImportOutcome> {
  if (!isObject(data)) return { ok: false, problems: ['$: expected an object'] };
  if (kind === 'templates') return importTemplates(knex, data);
  if (kind === 'thresholds') return importThresholds(knex, data);
  return importHistory(knex, data);
}

async function knownOrganizations(knex: Knex, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows: Array<{ id: string }> = (
    await knex.raw(
      `select organization_id as id from fleet_contract.accounts_v1 where organization_id = any(?::uuid[])
       union select organization_id from fleet_contract.vehicles_v1 where organization_id = any(?::uuid[])`,
      [ids, ids],
    )
  ).rows;
  return new Set(rows.map((r) => r.id));
}

async function importTemplates(knex: Knex, data: Json): Promise<ImportOutcome> {
  const problems: string[] = [];
  const list = data.templates;
  if (!Array.isArray(list) || list.length === 0)
    return { ok: false, problems: ['templates: expected a non-empty array'] };
  const rows: Json[] = [];
  const orgs = new Set<string>();
  const ids = new Set<string>();
  list.forEach((t, i) => {
    const p = `templates[${i}]`;
    if (!isObject(t)) return problems.push(`${p}: expected an object`);
    const id = t.id ?? randomUUID();
    if (!isUuid(id)) problems.push(`${p}.id: expected a uuid`);
    else if (ids.has(id.toLowerCase())) problems.push(`${p}.id: repeats an earlier template's id`);
    else ids.add(id.toLowerCase());
    const org = t.organizationId ?? null;
    if (org !== null && !isUuid(org)) problems.push(`${p}.organizationId: expected a uuid or null (global)`);
    else if (org) orgs.add(org.toLowerCase());
    if (!text(t.description, 500)) problems.push(`${p}.description: expected a text of 1 to 500 characters`);
    if (!SYSTEMS.includes(t.system as never))
      problems.push(`${p}.system: expected one of ${SYSTEMS.join(', ')} (got ${JSON.stringify(t.system)})`);
    if (t.externalId !== undefined && !text(t.externalId, 200))
      problems.push(`${p}.externalId: expected a text of 1 to 200 characters`);
    const interval = t.interval;
    let km = null;
    let months = null;
    let days = null;
    if (!isObject(interval))
      problems.push(`${p}.interval: expected an object with distanceKm, months and/or days`);
    else {
      for (const key of ['distanceKm', 'months', 'days'] as const) {
        const v = interval[key];
        if (v !== undefined && v !== null && !isInt(v, 1, key === 'distanceKm' ? 2_000_000 : 1200))
          problems.push(`${p}.interval.${key}: expected a positive integer`);
      }
      km = (interval.distanceKm as number | undefined) ?? null;
      months = (interval.months as number | undefined) ?? null;
      days = (interval.days as number | undefined) ?? null;
      if (km === null && months === null && days === null)
        problems.push(`${p}.interval: set at least one of distanceKm, months, days`);
    }
    for (const key of ['vehicleTypes', 'fuelTypes'] as const) {
      const v = t[key];
      if (
        v !== undefined &&
        v !== null &&
        (!Array.isArray(v) || v.length === 0 || !v.every((x) => text(x, 40)))
      )
        problems.push(`${p}.${key}: expected a non-empty array of names, or null for all`);
    }
    rows.push({
      id,
      organization_id: org,
      description: t.description,
      system: t.system,
      from_external_service: true,
      external_id: t.externalId ?? null,
      interval_km: km,
      interval_months: months,
      interval_days: days,
      vehicle_types: t.vehicleTypes ?? null,
      fuel_types: t.fuelTypes ?? null,
    });
  });
  const known = await knownOrganizations(knex, [...orgs]);
  list.forEach((t, i) => {
    if (isObject(t) && isUuid(t.organizationId) && !known.has(t.organizationId.toLowerCase()))
      problems.push(`templates[${i}].organizationId: unknown organization ${t.organizationId}`);
  });
  const existing: Array<{ id: string }> = await knex('maintenance.templates')
    .whereIn('id', [...ids])
    .select('id');
  for (const e of existing) {
    const i = list.findIndex((t) => isObject(t) && String(t.id).toLowerCase() === e.id);
    problems.push(`templates[${i}].id: a template ${e.id} already exists`);
  }
  if (problems.length > 0) return { ok: false, problems };
  await knex.transaction((trx) => trx('maintenance.templates').insert(rows));
  return { ok: true, summary: { templates: rows.length } };
}

async function importThresholds(knex: Knex, data: Json): Promise<ImportOutcome> {
  const problems: string[] = [];
  const org = data.organizationId;
  if (org !== null && !isUuid(org))
    problems.push('organizationId: expected a uuid, or null for the global defaults');
  else if (org && !(await knownOrganizations(knex, [org])).has(org.toLowerCase()))
    problems.push(`organizationId: unknown organization ${org}`);
  const list = data.thresholds;
  if (!Array.isArray(list) || list.length === 0)
    return { ok: false, problems: [...problems, 'thresholds: expected a non-empty array'] };
  const codes = new Set<string>();
  const levels = new Set<number>();
  const rows: Json[] = [];
  list.forEach((t, i) => {
    const p = `thresholds[${i}]`;
    if (!isObject(t)) return problems.push(`${p}: expected an object`);
    if (typeof t.code !== 'string' || !/^[A-Z][A-Z0-9_]{0,39}$/.test(t.code))
      problems.push(`${p}.code: expected an upper-case code like DUE_SOON`);
    else if (codes.has(t.code)) problems.push(`${p}.code: ${t.code} appears twice`);
    else codes.add(t.code);
    if (!isInt(t.criticality, 1, 9)) problems.push(`${p}.criticality: expected an integer from 1 to 9`);
    else if (levels.has(t.criticality)) problems.push(`${p}.criticality: ${t.criticality} appears twice`);
    else levels.add(t.criticality);
    for (const key of ['remainingDistance', 'remainingDuration'] as const) {
      const v = t[key];
      if (v !== undefined && v !== null && !isInt(v, -1_000_000))
        problems.push(`${p}.${key}: expected an integer or null`);
    }
    if (!text(t.description, 500)) problems.push(`${p}.description: expected a text of 1 to 500 characters`);
    rows.push({
      id: randomUUID(),
      organization_id: org ?? null,
      code: t.code,
      criticality: t.criticality,
      remaining_distance_km: t.remainingDistance ?? null,
      remaining_days: t.remainingDuration ?? null,
      description: t.description,
    });
  });
  if (problems.length > 0) return { ok: false, problems };
  await knex.transaction(async (trx) => {
    const scope = trx('maintenance.criticality_thresholds');
    await (org ? scope.where('organization_id', org) : scope.whereNull('organization_id')).delete();
    await trx('maintenance.criticality_thresholds').insert(rows);
  });
  return { ok: true, summary: { thresholds: rows.length } };
}

async function importHistory(knex: Knex, data: Json): Promise<ImportOutcome> {
  const problems: string[] = [];
  const org = data.organizationId;
  if (!isUuid(org))
    problems.push('organizationId: expected the uuid of the organization owning the vehicles');
  const list = data.history;
  if (!Array.isArray(list) || list.length === 0)
    return { ok: false, problems: [...problems, 'history: expected a non-empty array'] };
  if (problems.length > 0) return { ok: false, problems };
  const vehicles = await resolveVehicleReferences(
    knex,
    list.filter(isObject).map((h) => String(h.vehicle ?? '')),
    org as string,
  );
  const templateIds = [
    ...new Set(
      list
        .filter(isObject)
        .map((h) => h.template)
        .filter(isUuid),
    ),
  ];
  const templates: Array<{ id: string }> = await knex('maintenance.templates')
    .whereIn('id', templateIds)
    .where((q) => q.whereNull('organization_id').orWhere('organization_id', org as string))
    .select('id');
  const templateSet = new Set(templates.map((t) => t.id));
  const ids = new Set<string>();
  const rows: Json[] = [];
  list.forEach((h, i) => {
    const p = `history[${i}]`;
    if (!isObject(h)) return problems.push(`${p}: expected an object`);
    const id = h.id ?? randomUUID();
    if (!isUuid(id)) problems.push(`${p}.id: expected a uuid`);
    else if (ids.has(id.toLowerCase())) problems.push(`${p}.id: repeats an earlier record's id`);
    else ids.add(id.toLowerCase());
    const vehicle = vehicles.get(String(h.vehicle ?? ''));
    if (vehicle && 'problem' in vehicle) problems.push(`${p}.vehicle: ${vehicle.problem}`);
    if (!isUuid(h.template) || !templateSet.has(h.template.toLowerCase()))
      problems.push(
        `${p}.template: unknown template ${JSON.stringify(h.template)} (a global or this organization's template id)`,
      );
    if (!isInt(h.mileage, 0, 5_000_000))
      problems.push(`${p}.mileage: expected a whole number of km (0 or more)`);
    const date = typeof h.date === 'string' ? new Date(h.date) : null;
    if (!date || Number.isNaN(date.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(String(h.date)))
      problems.push(`${p}.date: expected an ISO 8601 date-time`);
    if (h.notes !== undefined && h.notes !== null && !text(h.notes, 2000))
      problems.push(`${p}.notes: expected a text of at most 2000 characters`);
    rows.push({
      id,
      vehicle_id: vehicle && 'found' in vehicle ? vehicle.found.id : undefined,
      template_id: h.template,
      mileage_km: h.mileage,
      done_at: date,
      notes: h.notes ?? null,
      from_external_service: true,
    });
  });
  if (ids.size > 0) {
    const existing: Array<{ id: string }> = await knex('maintenance.history')
      .whereIn('id', [...ids])
      .select('id');
    for (const e of existing) problems.push(`history: a record ${e.id} already exists`);
  }
  if (problems.length > 0) return { ok: false, problems };
  await knex.transaction((trx) => trx.batchInsert('maintenance.history', rows as any[], 1000));
  return { ok: true, summary: { history: rows.length } };
}

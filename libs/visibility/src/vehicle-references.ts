/**
 * One way for every importer to name a vehicle: its id, its VIN or its plate, read through
 * fleet-core's published contract. Plates compare without spaces or dashes and in any case
 * ("B-AB 1234" is "bab1234"); VINs compare in upper case. A reference that names no vehicle, or
 * several (two organizations' plates, a plate reused in one), is a problem the importer reports
 * with its JSON path; it never guesses.
 */
import type { Knex } from 'knex';

export interface ReferencedVehicle {
  id: string;
  organizationId: string;
}

export type VehicleReference = { found: ReferencedVehicle } | { problem: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A plate as compared: no spaces or dashes, upper case. */
export const plateKey = (plate: string): string => plate.replace(/[\s-]/g, '').toUpperCase();

interface Row {
  id: string;
  organization_id: string;
  vin: string | null;
  plate: string | null;
}

/**
 * Resolves each reference (id, VIN or plate) in one statement; `organizationId` limits the search
 * to one organization's vehicles. Every distinct reference gets an answer.
 */
export async function resolveVehicleReferences(
  knex: Knex,
  references: string[],
  organizationId?: string,
): Promise<Map<string, VehicleReference>> {
  const distinct = [...new Set(references.filter((r) => r.trim().length > 0))];
  const ids = distinct.filter((r) => UUID.test(r)).map((r) => r.toLowerCase());
  const vins = distinct.map((r) => r.toUpperCase());
  const plates = distinct.map(plateKey);
  const rows: Row[] =
    distinct.length === 0
      ? []
      : (
          await knex.raw(
            `select id, organization_id, vin, plate from fleet_contract.vehicles_v1
              where (id = any(?::uuid[]) or upper(vin) = any(?::text[])
                     or upper(regexp_replace(plate, '[\\s-]', '', 'g')) = any(?::text[]))
                and (?::uuid is null or organization_id = ?::uuid)`,
            [ids, vins, plates, organizationId ?? null, organizationId ?? null],
          )
        ).rows;
  const answers = new Map<string, VehicleReference>();
  for (const reference of references) {
    if (answers.has(reference)) continue;
    answers.set(reference, answerFor(reference, rows, organizationId));
  }
  return answers;
}

function answerFor(reference: string, rows: Row[], organizationId: string | undefined): VehicleReference {
  const where = organizationId ? ' of this organization' : '';
  if (reference.trim().length === 0) return { problem: 'expected a vehicle id, VIN or plate' };
  const byId = UUID.test(reference) ? rows.filter((r) => r.id === reference.toLowerCase()) : [];
  const matches =
    byId.length > 0
      ? byId
      : rows.filter(
          (r) =>
            (r.vin !== null && r.vin.toUpperCase() === reference.toUpperCase()) ||
            (r.plate !== null && plateKey(r.plate) === plateKey(reference)),
        );
  if (matches.length === 0)
    return { problem: `no vehicle${where} with the id, VIN or plate ${JSON.stringify(reference)}` };
  if (matches.length > 1)
    return {
      problem: `${JSON.stringify(reference)} names ${matches.length} vehicles${where}: name it by its id`,
    };
  const [vehicle] = matches as [Row];
  return { found: { id: vehicle.id, organizationId: vehicle.organization_id } };
}

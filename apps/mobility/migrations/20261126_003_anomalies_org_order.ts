/**
 * Anomalies in detection order within their organization, (organization_id, detected_at, id),
 * scanned backward for the list's default newest-first order and forward for DETECTED_AT_ASC.
 *
 * Why: the root `mobilityTransactionAnomalies` list of an account that sees its whole hierarchy
 * (a member of a top-level group seeing a large fleet, libs/visibility rootListScope) walks its
 * organization's anomalies in page order and tests each row's visibility: one index range,
 * stopping once the page is full. Before, every page built the viewer's visible devices,
 * vehicles, drivers and groups first, a cost growing with the fleet (31.7 ms of PostgreSQL for a
 * page of 50 at `npm run seed -- --scale 100`).
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    'create index anomalies_org_detected_idx on mobility.anomalies (organization_id, detected_at, id)',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index mobility.anomalies_org_detected_idx');
}

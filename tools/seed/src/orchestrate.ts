/**
 * The demo-data orchestrator: every subgraph owns its demo rows behind its manifest's demoData
 * hook; this runs the hooks in dependency order (fleet-core before the subgraphs that read its
 * contract), skips the ones already seeded, and creates at the SSO the demo logins the hooks hand
 * back (no subgraph writes the SSO's tables).
 */
import type { Knex } from 'knex';
import { migrateSchema } from '@fleetgraph/db';
import { ensureUsers, hashPassword, migrations as ssoMigrations, SSO_SCHEMA } from '@fleetgraph/sso';
import type { DemoDataContext, SubgraphManifest } from '@fleetgraph/subgraph-kit';
import { isSeeded as fleetSeeded, seedDemo as seedFleet } from './seed';

export interface OrchestrateOptions {
  log?: (line: string) => void;
  progress?: boolean;
  now?: Date;
  scale?: number;
}

export interface OrchestrateSummary {
  /** subgraphs whose demo data was written now */
  seeded: string[];
  /** subgraphs that already had theirs */
  skipped: string[];
  logins: number;
}

/** Migrates the SSO and every subgraph schema, in dependency order. */
export async function migrateAll(knex: Knex, manifests: SubgraphManifest<any>[]): Promise<void> {
  await migrateSchema(knex, SSO_SCHEMA, ssoMigrations);
  for (const m of manifests) await migrateSchema(knex, m.dbSchema, m.migrations);
}

export async function seedDemoData(
  knex: Knex,
  manifests: SubgraphManifest<any>[],
  options: OrchestrateOptions = {},
): Promise<OrchestrateSummary> {
  const log = options.log ?? (() => {});
  const context: DemoDataContext = {
    log,
    progress: options.progress ?? false,
    now: options.now ?? startOfUtcDay(new Date()),
    scale: options.scale ?? 1,
  };
  const summary: OrchestrateSummary = { seeded: [], skipped: [], logins: 0 };
  for (const manifest of manifests) {
    const hook = manifest.demoData ?? legacyHook(manifest);
    if (!hook) continue;
    if (await hook.isSeeded(knex)) {
      summary.skipped.push(manifest.name);
      continue;
    }
    if (summary.seeded.length === 0) log('first start: loading demo data');
    const started = Date.now();
    const result = await hook.seed(knex, context);
    const logins = result?.logins ?? [];
    summary.logins += await ensureUsers(
      knex,
      logins.map((l) => ({ ...l, id: l.uid })),
      hashPassword,
    );
    summary.seeded.push(manifest.name);
    log(`${manifest.name}: demo data loaded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  return summary;
}

/**
 * fleet-core's demo generator still lives in tools/seed while it moves behind fleet-core's own
 * hook; until then the orchestrator calls it for fleet-core (it writes its SSO logins itself).
 */
function legacyHook(manifest: SubgraphManifest<any>): SubgraphManifest['demoData'] {
  if (manifest.name !== 'fleet-core') return undefined;
  return {
    isSeeded: fleetSeeded,
    seed: async (knex, context) => {
      await seedFleet(knex, { progress: context.progress, log: context.log, scale: context.scale });
    },
  };
}

/** The demo's "today": every hook derives its timestamps from the same instant. */
export function startOfUtcDay(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
}

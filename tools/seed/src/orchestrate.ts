/**
 * The demo-data orchestrator: every subgraph owns its demo rows behind its manifest's demoData
 * hook; this runs the hooks in dependency order (fleet-core before the subgraphs that read its
 * contract), skips the ones already seeded, and creates at the SSO the demo logins the hooks hand
 * back (no subgraph writes the SSO's tables).
 */
import type { Knex } from 'knex';
import { migrateSchema } from '@fleetgraph/db';
import { ensureUsers, hashPassword, migrations as ssoMigrations, SSO_SCHEMA } from '@fleetgraph/sso';
import type { DemoDataContext, DemoLogin, SubgraphManifest } from '@fleetgraph/subgraph-kit';

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

/** Creates at the SSO the logins a subgraph's hook or importer handed back (existing ones kept). */
export function createLogins(knex: Knex, logins: DemoLogin[]): Promise<number> {
  return ensureUsers(
    knex,
    logins.map((l) => ({ ...l, id: l.uid })),
    hashPassword,
  );
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
    const hook = manifest.demoData;
    if (!hook) continue;
    if (await hook.isSeeded(knex)) {
      summary.skipped.push(manifest.name);
      continue;
    }
    if (summary.seeded.length === 0) log('first start: loading demo data');
    const started = Date.now();
    const result = await hook.seed(knex, context);
    const logins = result?.logins ?? [];
    summary.logins += await createLogins(knex, logins);
    summary.seeded.push(manifest.name);
    log(`${manifest.name}: demo data loaded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  return summary;
}

/** The demo's "today": every hook derives its timestamps from the same instant. */
export function startOfUtcDay(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
}

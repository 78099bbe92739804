/**
 * fleet-core's demo data behind its manifest's demoData hook: the deterministic demo fleet
 * (seed.ts) written into the fleet schema only. The accounts' sign-ins go back to the
 * orchestrator (DemoSeedResult.logins), which creates them at the SSO.
 */
import type { Knex } from 'knex';
import type { DemoDataContext, DemoLogin, DemoSeedResult } from '@fleetgraph/subgraph-kit';
import { COUNTED_TABLES, type TableCounts } from './enums';
import { seedDemo, type SeedAccount } from './seed';

export {
  seedDemo,
  isSeeded,
  DEMO_EMAIL,
  DEMO_PASSWORD,
  DEMO_FULL_NAME,
  DEFAULT_TRIPS_PER_DEVICE,
  MAX_SCALE,
  type SeedOptions,
  type SeedSummary,
  type SeedLogin,
  type SeedAccount,
} from './seed';
export { seedActivity, type DeviceActivity, type ActivityCounts } from './activity';
export { COUNTED_TABLES, emptyCounts, formatCounts, type TableCounts } from './enums';

/** A demo login with the account's language, which the SSO stores with the user. */
export type DemoAccountLogin = DemoLogin & { language: string };

/** The demoData hook's seed: the demo fleet at ctx.scale around ctx.now; logins for every account. */
export async function seedFleetDemo(knex: Knex, context: DemoDataContext): Promise<DemoSeedResult> {
  const summary = await seedDemo(knex, {
    now: context.now,
    scale: context.scale,
    progress: context.progress,
    log: context.log,
  });
  return { logins: summary.signIns.map(toLogin), counts: countsByTable(summary) };
}

export function toLogin(account: SeedAccount): DemoAccountLogin {
  const { uid, email, password, fullName, language } = account;
  return { uid, email, password, fullName, language };
}

/** Counts keyed by table name ("fleet.devices": 60). */
export function countsByTable(counts: TableCounts): Record<string, number> {
  return Object.fromEntries(
    (Object.keys(COUNTED_TABLES) as Array<keyof TableCounts>).map((key) => [
      COUNTED_TABLES[key],
      counts[key],
    ]),
  );
}

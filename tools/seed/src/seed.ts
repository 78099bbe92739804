/**
 * `seedDemo` as before the demo generator moved into fleet-core (apps/fleet-core/src/demo): the
 * fleet demo, plus its accounts' SSO users written in the same transaction (one argon2id hash of
 * the shared demo password for every account: demo data only). tools/start and tools/e2e use the
 * orchestrator (orchestrate.ts); this stays for `npm run seed`, the benchmarks and the tests.
 */
import type { Knex } from 'knex';
import { hashPassword } from '@fleetgraph/sso';
import {
  DEMO_PASSWORD,
  seedDemo as seedFleetDemo,
  type SeedAccount,
  type SeedOptions as FleetSeedOptions,
  type SeedSummary as FleetSeedSummary,
} from '@fleetgraph/fleet-core';
import { insertInBatches } from './write';

export {
  isSeeded,
  DEMO_EMAIL,
  DEMO_PASSWORD,
  DEMO_FULL_NAME,
  DEFAULT_TRIPS_PER_DEVICE,
  MAX_SCALE,
  type SeedLogin,
} from '@fleetgraph/fleet-core';

export type SeedOptions = Omit<FleetSeedOptions, 'onSignIns'>;
export type SeedSummary = Omit<FleetSeedSummary, 'signIns'>;

export async function seedDemo(knex: Knex, options: SeedOptions = {}): Promise<SeedSummary> {
  const { signIns: _signIns, ...summary } = await seedFleetDemo(knex, {
    ...options,
    onSignIns: writeDemoUsers,
  });
  return summary;
}

/** The seeded accounts' SSO users, sharing one hash of the demo password. */
async function writeDemoUsers(trx: Knex.Transaction, signIns: SeedAccount[]): Promise<number> {
  const hash = await hashPassword(DEMO_PASSWORD);
  return insertInBatches(
    trx,
    'sso.users',
    signIns.map((s) => userRow(s, hash)),
  );
}

export function userRow(s: SeedAccount, passwordHash: string): Record<string, unknown> {
  return {
    id: s.uid,
    email: s.email,
    password_hash: passwordHash,
    full_name: s.fullName,
    language: s.language,
    created_at: s.createdAt,
    updated_at: s.createdAt,
  };
}

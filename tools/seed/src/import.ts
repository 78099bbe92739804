/**
 * `importDataset` as before the JSON import moved into fleet-core (apps/fleet-core/src/import):
 * fleet-core validates and writes the fleet rows; this adds each account's SSO user in the same
 * transaction, its password hashed separately (argon2id, own salt) before the transaction opens.
 */
import type { Knex } from 'knex';
import { hashPassword } from '@fleetgraph/sso';
import {
  importDataset as importFleetDataset,
  validateDataset as validateFleetDataset,
  type ImportedAccount,
  type SignInConflicts,
} from '@fleetgraph/fleet-core';
import { userRow } from './seed';
import { insertInBatches } from './write';

export { ImportError, type ImportSummary } from '@fleetgraph/fleet-core';

export function importDataset(knex: Knex, input: unknown) {
  return importFleetDataset(knex, input, { signIns: prepareUsers, signInConflicts: ssoConflicts(knex) });
}

export function validateDataset(knex: Knex, input: unknown): Promise<string[]> {
  return validateFleetDataset(knex, input, { signInConflicts: ssoConflicts(knex) });
}

/** Account ids and e-mails the SSO already has (an import may not take them over). */
function ssoConflicts(knex: Knex): SignInConflicts {
  const found = async (sql: string, keys: string[]) =>
    new Set((await knex.raw<{ rows: Array<{ key: string }> }>(sql, [keys])).rows.map((r) => r.key));
  return {
    accountIds: (ids) => found('select id::text as key from sso.users where id = any(?::uuid[])', ids),
    emails: (emails) =>
      found('select lower(email) as key from sso.users where lower(email) = any(?::text[])', emails),
  };
}

async function prepareUsers(accounts: ImportedAccount[]) {
  const hashes = await hashAll(accounts.map((a) => a.password));
  const now = new Date();
  const rows = accounts.map((a, i) => userRow({ ...a, createdAt: now }, hashes[i]!));
  return (trx: Knex.Transaction) => insertInBatches(trx, 'sso.users', rows);
}

/** argon2id for each password (own salt each), a few at a time: each hash costs ~50 ms and 19 MiB. */
async function hashAll(passwords: string[], concurrency = 4): Promise<string[]> {
  const out = new Array<string>(passwords.length);
  let next = 0;
  const worker = async () => {
    while (next < passwords.length) {
      const i = next++;
      out[i] = await hashPassword(passwords[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, passwords.length) }, worker));
  return out;
}

/**
 * Brute-force throttling of password checks (sign-in page and password grant).
 * - failures are counted per account (lower-cased email) and per client address, in
 *   sso.auth_failures, so every instance sees the same counts;
 * - at MAX_FAILURES failures within WINDOW_SECONDS for either key, further attempts are refused
 *   before the password is even checked, until the oldest failure in the window ages out;
 *   the caller learns how many seconds that is (Retry-After);
 * - a successful sign-in clears the account's failures (not the address's);
 * - old rows are pruned opportunistically.
 */
import type { Knex } from '@fleetgraph/db';

export const MAX_FAILURES = 10;
export const WINDOW_SECONDS = 15 * 60;

export function throttleKeys(email: string, ip: string): string[] {
  return [`account:${email.trim().toLowerCase()}`, `ip:${ip}`];
}

/** Seconds until another attempt is allowed, or 0 when not throttled. */
export async function retryAfterSeconds(db: Knex, keys: string[]): Promise<number> {
  const rows: { key: string; count: string; oldest: Date }[] = await db('sso.auth_failures')
    .select('key')
    .count({ count: '*' })
    .min({ oldest: 'at' })
    .whereIn('key', keys)
    .where('at', '>', db.raw(`now() - interval '${WINDOW_SECONDS} seconds'`))
    .groupBy('key');
  let wait = 0;
  for (const row of rows) {
    if (Number(row.count) < MAX_FAILURES) continue;
    // The window frees up when enough old failures leave it; the oldest one is a safe lower bound.
    const seconds = Math.ceil((new Date(row.oldest).getTime() + WINDOW_SECONDS * 1000 - Date.now()) / 1000);
    wait = Math.max(wait, seconds, 1);
  }
  return wait;
}

export async function recordFailure(db: Knex, keys: string[]): Promise<void> {
  await db('sso.auth_failures').insert(keys.map((key) => ({ key })));
  if (Math.random() < 0.01) {
    await db('sso.auth_failures')
      .where('at', '<', db.raw(`now() - interval '${WINDOW_SECONDS} seconds'`))
      .delete();
  }
}

export async function clearAccountFailures(db: Knex, email: string): Promise<void> {
  await db('sso.auth_failures')
    .where({ key: throttleKeys(email, '')[0] })
    .delete();
}

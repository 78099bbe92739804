/**
 * Brute-force throttling of password checks (sign-in page and password grant).
 * - failures are counted per account (lower-cased email) and per client address, in
 *   sso.auth_failures, so every instance sees the same counts;
 * - at MAX_FAILURES failures within WINDOW_SECONDS for either key, further attempts are refused
 *   before the password is even checked, until the oldest failure in the window ages out;
 *   the caller learns how many seconds that is (Retry-After);
 * - an attempt is recorded as a failure BEFORE the password is checked, and only then counted
 *   (beginAttempt): concurrent attempts each see the ones before them, so a burst cannot slip
 *   more than MAX_FAILURES checks through while the first ones are still being verified. A
 *   refused attempt removes its record (an attacker cannot extend a lockout by hammering);
 * - a successful sign-in removes its own records and the account's failures (not the address's);
 * - old rows are pruned opportunistically.
 */
import type { Knex } from '@fleetgraph/db';

export const MAX_FAILURES = 10;
export const WINDOW_SECONDS = 15 * 60;

export function throttleKeys(email: string, ip: string): string[] {
  return [`account:${email.trim().toLowerCase()}`, `ip:${ip}`];
}

/** Seconds until another attempt is allowed, or 0 when not throttled (at `limit` failures). */
export async function retryAfterSeconds(db: Knex, keys: string[], limit = MAX_FAILURES): Promise<number> {
  const rows: { key: string; count: string; oldest: Date }[] = await db('sso.auth_failures')
    .select('key')
    .count({ count: '*' })
    .min({ oldest: 'at' })
    .whereIn('key', keys)
    .where('at', '>', db.raw(`now() - interval '${WINDOW_SECONDS} seconds'`))
    .groupBy('key');
  let wait = 0;
  for (const row of rows) {
    if (Number(row.count) < limit) continue;
    // The window frees up when enough old failures leave it; the oldest one is a safe lower bound.
    const seconds = Math.ceil((new Date(row.oldest).getTime() + WINDOW_SECONDS * 1000 - Date.now()) / 1000);
    wait = Math.max(wait, seconds, 1);
  }
  return wait;
}

/** An attempt in progress: its provisional failure records. */
export interface Attempt {
  ids: number[];
}

/**
 * Records the attempt as a failure of each key, then counts: over MAX_FAILURES (this one
 * included) it is refused, its records removed, and the seconds to wait answered.
 */
export async function beginAttempt(
  db: Knex,
  keys: string[],
): Promise<{ wait: number; attempt: Attempt | undefined }> {
  const inserted: { id: string | number }[] = await db('sso.auth_failures')
    .insert(keys.map((key) => ({ key })))
    .returning('id');
  const ids = inserted.map((row) => Number(row.id));
  const wait = await retryAfterSeconds(db, keys, MAX_FAILURES + 1);
  if (wait > 0) {
    await db('sso.auth_failures').whereIn('id', ids).delete();
    return { wait, attempt: undefined };
  }
  if (Math.random() < 0.01) {
    await db('sso.auth_failures')
      .where('at', '<', db.raw(`now() - interval '${WINDOW_SECONDS} seconds'`))
      .delete();
  }
  return { wait: 0, attempt: { ids } };
}

/** The password was right: the attempt's records and the account's earlier failures go. */
export async function attemptSucceeded(db: Knex, attempt: Attempt, email: string): Promise<void> {
  await db('sso.auth_failures')
    .whereIn('id', attempt.ids)
    .orWhere({ key: throttleKeys(email, '')[0] })
    .delete();
}

/**
 * Brute-force policy for password checks (sign-in page and password grant), after OWASP's
 * Authentication and Credential Stuffing cheat sheets. Failures are rows of sso.auth_failures
 * (every instance sees the same counts), under three keys:
 * - `pair:<email>|<address>`: at `pairMaxFailures` (10) failures in the window (15 min) that
 *   address may not try that account again until the oldest failure ages out (429, Retry-After).
 *   The owner, from anywhere else, is not affected;
 * - `ip:<address>`: a much higher ceiling, `addressMaxFailures` (100) failures on any accounts,
 *   so one NAT address shared by a company is not locked by a few of its users' typos, while one
 *   address spraying passwords over many accounts is stopped;
 * - `account:<email>`: never a lock. After `delayAfterFailures` (3) failures in the window, from
 *   whatever addresses, each further wrong answer is delayed (250 ms, doubling, capped at
 *   4 s) before it is sent: guessing slows down, the owner's right password is answered at once.
 * Only failures count, recorded after the password was checked: a correct password is never
 * refused because other attempts were in flight. Bursts are bounded instead by check slots
 * (check-slots.ts): at most a few checks of one pair, or one account, run at once per instance;
 * the others wait their turn, an address without failures in the window ahead of those with
 * some, which are refused past a short queue; each is gated again when its turn comes.
 * A refused attempt records nothing (it cannot extend a lock). Unknown accounts are counted like
 * known ones (no enumeration).
 */
import type { Knex } from '@fleetgraph/db';

export interface ThrottlePolicy {
  windowSeconds: number;
  pairMaxFailures: number;
  addressMaxFailures: number;
  delayAfterFailures: number;
  delayBaseMs: number;
  delayMaxMs: number;
}

/** The defaults (each configurable: LOGIN_* in config.ts). */
export const DEFAULT_THROTTLE_POLICY: ThrottlePolicy = {
  windowSeconds: 15 * 60,
  pairMaxFailures: 10,
  addressMaxFailures: 100,
  delayAfterFailures: 3,
  delayBaseMs: 250,
  delayMaxMs: 4_000,
};

/** Rows older than this are pruned by the purge job. */
export const WINDOW_SECONDS = DEFAULT_THROTTLE_POLICY.windowSeconds;

const normalized = (email: string) => email.trim().toLowerCase();

export function throttleKeys(email: string, ip: string) {
  return {
    pair: `pair:${normalized(email)}|${ip}`,
    address: `ip:${ip}`,
    account: `account:${normalized(email)}`,
  };
}

interface WindowCount {
  count: number;
  oldest: Date | null;
}

async function countInWindow(
  db: Knex,
  keys: string[],
  windowSeconds: number,
): Promise<Map<string, WindowCount>> {
  const rows: { key: string; count: string; oldest: Date }[] = await db('sso.auth_failures')
    .select('key')
    .count({ count: '*' })
    .min({ oldest: 'at' })
    .whereIn('key', keys)
    .where('at', '>', db.raw('now() - make_interval(secs => ?)', [windowSeconds]))
    .groupBy('key');
  return new Map(rows.map((r) => [r.key, { count: Number(r.count), oldest: new Date(r.oldest) }]));
}

function secondsUntilFree(
  count: WindowCount | undefined,
  limit: number,
  windowSeconds: number,
  now: number,
): number {
  if (!count || count.count < limit || !count.oldest) return 0;
  return Math.max(1, Math.ceil((count.oldest.getTime() + windowSeconds * 1000 - now) / 1000));
}

/**
 * Seconds this address must wait before trying this account (0: go ahead): the pair's lock or
 * the address's ceiling. Checked before the password, and again when a queued check gets its turn.
 */
export async function retryAfterSeconds(
  db: Knex,
  email: string,
  ip: string,
  policy: ThrottlePolicy,
  now = Date.now(),
): Promise<number> {
  const keys = throttleKeys(email, ip);
  const counts = await countInWindow(db, [keys.pair, keys.address], policy.windowSeconds);
  return Math.max(
    secondsUntilFree(counts.get(keys.pair), policy.pairMaxFailures, policy.windowSeconds, now),
    secondsUntilFree(counts.get(keys.address), policy.addressMaxFailures, policy.windowSeconds, now),
  );
}

/** Whether this address failed a password check in the window (its attempts then queue last). */
export async function addressHasFailures(db: Knex, ip: string, policy: ThrottlePolicy): Promise<boolean> {
  const row = await db('sso.auth_failures')
    .first(db.raw('1 as found'))
    .where('key', throttleKeys('', ip).address)
    .where('at', '>', db.raw('now() - make_interval(secs => ?)', [policy.windowSeconds]));
  return row !== undefined;
}

/** The delay before answering the `failures`-th failure of an account in the window (the first `delayAfterFailures` are free). */
export function failureDelayMs(failures: number, policy: ThrottlePolicy): number {
  const over = failures - policy.delayAfterFailures - 1;
  if (over < 0 || policy.delayBaseMs <= 0) return 0;
  return Math.min(policy.delayMaxMs, policy.delayBaseMs * 2 ** Math.min(over, 20));
}

/**
 * Records a failed check under the three keys; answers how long to wait before saying so (the
 * account's progressive delay, counting this failure).
 */
export async function recordFailure(
  db: Knex,
  email: string,
  ip: string,
  policy: ThrottlePolicy,
): Promise<number> {
  const keys = throttleKeys(email, ip);
  await db('sso.auth_failures').insert([{ key: keys.pair }, { key: keys.address }, { key: keys.account }]);
  const counts = await countInWindow(db, [keys.account], policy.windowSeconds);
  if (Math.random() < 0.01) {
    await db('sso.auth_failures')
      .where('at', '<', db.raw('now() - make_interval(secs => ?)', [policy.windowSeconds]))
      .delete();
  }
  return failureDelayMs(counts.get(keys.account)?.count ?? 1, policy);
}

/** The right password from this address: the pair starts again (others' failures stay). */
export async function recordSuccess(db: Knex, email: string, ip: string): Promise<void> {
  await db('sso.auth_failures')
    .where({ key: throttleKeys(email, ip).pair })
    .delete();
}

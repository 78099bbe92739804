/**
 * One password attempt under the brute-force policy (data/throttle.ts), shared by the sign-in
 * page and the password grant: a place in the check slots (an address without recent failures
 * first; one with failures refused past a bounded queue) -> gate (pair lock, address ceiling) ->
 * argon2 check -> record the outcome -> a failure waits the account's progressive delay before it
 * is answered. An unknown user is checked against a decoy hash (same time, same answer); a
 * disabled user is a failure like a wrong password.
 */
import { createCheckSlots, SlotsFull } from '../data/check-slots';
import {
  addressHasFailures,
  recordFailure,
  recordSuccess,
  retryAfterSeconds,
  throttleKeys,
} from '../data/throttle';
import { findUserByEmail, type UserWithHash as User } from '../data/users';
import type { OAuthContext } from '../oauth/context';
import { decoyHash, verifyPassword } from '../passwords';

/** Checks of one pair or one account running at once in this process; more wait their turn. */
export const CHECK_SLOTS_PER_KEY = 4;
/** Attempts from addresses with failures that may wait for one key; more are refused at once. */
export const CHECK_QUEUE_PER_KEY = 8;
/** What an attempt refused for a full queue is told to wait. */
export const CHECK_QUEUE_RETRY_SECONDS = 2;
const slots = createCheckSlots(CHECK_SLOTS_PER_KEY, CHECK_QUEUE_PER_KEY);

export type PasswordAttempt =
  | { outcome: 'accepted'; user: User }
  | { outcome: 'refused'; user: User | undefined }
  | { outcome: 'throttled'; retryAfter: number };

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function attemptPassword(
  ctx: OAuthContext,
  input: { email: string; password: string; ip: string },
): Promise<PasswordAttempt> {
  const policy = ctx.config.throttle;
  const keys = throttleKeys(input.email, input.ip);
  const urgent = !(await addressHasFailures(ctx.knex, input.ip, policy));
  let delay = 0;
  const check = async (): Promise<PasswordAttempt> => {
    const wait = await retryAfterSeconds(ctx.knex, input.email, input.ip, policy);
    if (wait > 0) return { outcome: 'throttled', retryAfter: wait };
    const user = await findUserByEmail(ctx.knex, input.email.trim());
    const passwordOk = await verifyPassword(user?.passwordHash ?? (await decoyHash()), input.password);
    if (user && passwordOk && !user.disabled) {
      await recordSuccess(ctx.knex, input.email, input.ip);
      return { outcome: 'accepted', user };
    }
    // Recorded before the slot is freed: the next check of this pair sees this failure at its
    // gate (recorded after the slot, a loaded server let checks past the lock; seen: 16 of 40).
    delay = await recordFailure(ctx.knex, input.email, input.ip, policy);
    return { outcome: 'refused', user };
  };
  let checked: PasswordAttempt;
  try {
    checked = await slots.run([keys.pair, keys.account], check, { urgent });
  } catch (error) {
    if (!(error instanceof SlotsFull)) throw error;
    return { outcome: 'throttled', retryAfter: CHECK_QUEUE_RETRY_SECONDS };
  }
  // The account's progressive delay is waited outside the slot: it holds no one else back.
  if (checked.outcome === 'refused' && delay > 0) await (ctx.sleep ?? realSleep)(delay);
  return checked;
}

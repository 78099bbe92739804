/**
 * One password attempt under the brute-force policy (data/throttle.ts), shared by the sign-in
 * page and the password grant: gate (pair lock, address ceiling) -> argon2 check in a check slot
 * -> record the outcome -> a failure waits the account's progressive delay before it is answered.
 * An unknown user is checked against a decoy hash (same time, same answer); a disabled user is a
 * failure like a wrong password.
 */
import { createCheckSlots } from '../data/check-slots';
import { recordFailure, recordSuccess, retryAfterSeconds, throttleKeys } from '../data/throttle';
import { findUserByEmail, type UserWithHash as User } from '../data/users';
import type { OAuthContext } from '../oauth/context';
import { decoyHash, verifyPassword } from '../passwords';

/** Checks of one pair or one account running at once in this process; more wait their turn. */
export const CHECK_SLOTS_PER_KEY = 4;
const slots = createCheckSlots(CHECK_SLOTS_PER_KEY);

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
  let delay = 0;
  const checked = await slots.run([keys.pair, keys.account], async (): Promise<PasswordAttempt> => {
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
  });
  // The account's progressive delay is waited outside the slot: it holds no one else back.
  if (checked.outcome === 'refused' && delay > 0) await (ctx.sleep ?? realSleep)(delay);
  return checked;
}

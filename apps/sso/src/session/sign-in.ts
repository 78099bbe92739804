/**
 * A password sign-in from a page (authorization flow or application pages).
 * - throttled per account and per client address before the password is checked (429 with the
 *   seconds to wait);
 * - argon2 check; an unknown user is checked against a decoy hash (same time, same answer);
 *   a disabled user gets the same answer as a wrong password;
 * - an attempt is recorded before the password is checked (data/throttle.ts beginAttempt); a
 *   success removes it and clears the account's failures;
 * - every outcome is audited.
 */
import { audit } from '../data/audit';
import { attemptSucceeded, beginAttempt, throttleKeys } from '../data/throttle';
import { findUserByEmail } from '../data/users';
import type { OAuthContext } from '../oauth/context';
import { decoyHash, verifyPassword } from '../passwords';

export type SignInOutcome =
  { ok: true; userId: string } | { ok: false; status: 401 | 429; message: string; retryAfter?: number };

export async function attemptSignIn(
  ctx: OAuthContext,
  input: { email: string; password: string; ip: string; clientId: string | null },
): Promise<SignInOutcome> {
  const keys = throttleKeys(input.email, input.ip);
  const { wait, attempt } = await beginAttempt(ctx.knex, keys);
  if (!attempt) {
    await audit(ctx.knex, 'sign_in.throttled', { clientId: input.clientId, ip: input.ip });
    return {
      ok: false,
      status: 429,
      retryAfter: wait,
      message: `Too many failed attempts. Try again in ${Math.ceil(wait / 60)} minutes.`,
    };
  }
  const user = await findUserByEmail(ctx.knex, input.email);
  const passwordOk = await verifyPassword(user?.passwordHash ?? (await decoyHash()), input.password);
  if (!user || !passwordOk || user.disabled) {
    await audit(ctx.knex, 'sign_in.failure', { userId: user?.id, clientId: input.clientId, ip: input.ip });
    return { ok: false, status: 401, message: 'The email address or password is not correct.' };
  }
  await attemptSucceeded(ctx.knex, attempt, input.email);
  await audit(ctx.knex, 'sign_in.success', { userId: user.id, clientId: input.clientId, ip: input.ip });
  return { ok: true, userId: user.id };
}

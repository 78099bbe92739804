/**
 * A password sign-in from a page (authorization flow or application pages), under the
 * brute-force policy (data/throttle.ts, session/password-check.ts): a locked pair or an address
 * over its ceiling is a 429 page with the seconds to wait; a wrong password, an unknown or a
 * disabled user the same 401 message. Every outcome is audited.
 */
import { audit } from '../data/audit';
import type { OAuthContext } from '../oauth/context';
import { attemptPassword } from './password-check';

export type SignInOutcome =
  { ok: true; userId: string } | { ok: false; status: 401 | 429; message: string; retryAfter?: number };

export async function attemptSignIn(
  ctx: OAuthContext,
  input: { email: string; password: string; ip: string; clientId: string | null },
): Promise<SignInOutcome> {
  const attempt = await attemptPassword(ctx, input);
  if (attempt.outcome === 'throttled') {
    await audit(ctx.knex, 'sign_in.throttled', { clientId: input.clientId, ip: input.ip });
    return {
      ok: false,
      status: 429,
      retryAfter: attempt.retryAfter,
      message: `Too many failed attempts. Try again in ${Math.ceil(attempt.retryAfter / 60)} minutes.`,
    };
  }
  if (attempt.outcome === 'refused') {
    await audit(ctx.knex, 'sign_in.failure', {
      userId: attempt.user?.id,
      clientId: input.clientId,
      ip: input.ip,
    });
    return { ok: false, status: 401, message: 'The email address or password is not correct.' };
  }
  await audit(ctx.knex, 'sign_in.success', {
    userId: attempt.user.id,
    clientId: input.clientId,
    ip: input.ip,
  });
  return { ok: true, userId: attempt.user.id };
}

/**
 * Password grant (spec 5.2, RFC 6749 4.3).
 * - username (an email, matched case-insensitively) and password are required: invalid_request;
 * - a client is optional (scripts of an account owner); a registered client must be allowed the
 *   password grant (unauthorized_client);
 * - the brute-force policy (data/throttle.ts, session/password-check.ts): a locked (account,
 *   address) pair or an address over its ceiling is 429 with Retry-After and the RFC 6749 body
 *   `invalid_grant` ("Too many failed attempts"), without checking the password; an account's
 *   repeated failures are answered after a progressive delay;
 * - the password is checked with argon2; an unknown user is checked against a decoy hash, so it
 *   costs the same time as a wrong password and answers the same invalid_grant (no enumeration);
 * - a disabled user is refused with the same invalid_grant;
 * - the granted scope is `public`; every login starts a new refresh-token family;
 * - successes, failures and throttled attempts are audited.
 */
import { randomUUID } from 'node:crypto';
import { audit } from '../../data/audit';
import { OAuthError } from '../../errors';
import { attemptPassword } from '../../session/password-check';
import { checkClientGrant } from '../checks/client';
import { requireParams } from '../checks/params';
import { checkScope } from '../checks/scope';
import type { ClientIdentity, OAuthContext, RequestMeta, TokenParams } from '../context';
import { issueTokens, type TokenResponse } from '../issue';

export const PASSWORD_GRANT_SCOPE = 'public';
/** What a password grant may ask for; without a scope parameter it gets `public`. */
const PASSWORD_GRANT_SCOPES = `${PASSWORD_GRANT_SCOPE} profile`;
const BAD_CREDENTIALS = 'The username or password is not correct';

export class ThrottledError extends OAuthError {
  constructor(readonly retryAfter: number) {
    super('invalid_grant', `Too many failed attempts; try again in ${retryAfter} seconds`, 429);
  }
}

export async function passwordGrant(
  ctx: OAuthContext,
  params: TokenParams,
  client: ClientIdentity,
  meta: RequestMeta,
): Promise<TokenResponse> {
  checkClientGrant(client, 'password');
  const { username, password } = requireParams(params, 'username', 'password');
  // `public` unless the script asks for the narrower `profile` (libs/auth scopes.ts).
  const scope = params.scope?.trim() ? checkScope(params.scope, PASSWORD_GRANT_SCOPES) : PASSWORD_GRANT_SCOPE;

  const attempt = await attemptPassword(ctx, { email: username, password, ip: meta.ip });
  if (attempt.outcome === 'throttled') {
    await audit(ctx.knex, 'token.throttled', {
      clientId: client.clientId,
      ip: meta.ip,
      detail: { grant: 'password' },
    });
    throw new ThrottledError(attempt.retryAfter);
  }
  if (attempt.outcome === 'refused') {
    await audit(ctx.knex, 'token.refused', {
      userId: attempt.user?.id,
      clientId: client.clientId,
      ip: meta.ip,
      detail: { grant: 'password' },
    });
    throw new OAuthError('invalid_grant', BAD_CREDENTIALS);
  }
  const { user } = attempt;

  return ctx.knex.transaction(async (trx) => {
    const tokens = await issueTokens(ctx, trx, {
      user,
      clientId: client.clientId,
      scope,
      familyId: randomUUID(),
    });
    await audit(trx, 'token.issued', {
      userId: user.id,
      clientId: client.clientId,
      ip: meta.ip,
      detail: { grant: 'password' },
    });
    return tokens;
  });
}

/**
 * Password grant (spec 5.2, RFC 6749 4.3).
 * - username (an email, matched case-insensitively) and password are required: invalid_request;
 * - the password is checked with argon2; an unknown user is checked against a decoy hash, so it
 *   costs the same time as a wrong password and answers the same invalid_grant (no enumeration);
 * - a disabled user is refused with the same invalid_grant;
 * - the granted scope is `public`; every login starts a new refresh-token family.
 */
import { randomUUID } from 'node:crypto';
import { findUserByEmail } from '../../data/users';
import { OAuthError } from '../../errors';
import { decoyHash, verifyPassword } from '../../passwords';
import { requireParams } from '../checks/params';
import { checkScope } from '../checks/scope';
import type { ClientIdentity, OAuthContext, TokenParams } from '../context';
import { issueTokens, type TokenResponse } from '../issue';

export const PASSWORD_GRANT_SCOPE = 'public';
const BAD_CREDENTIALS = 'The username or password is not correct';

export async function passwordGrant(ctx: OAuthContext, params: TokenParams, client: ClientIdentity): Promise<TokenResponse> {
  const { username, password } = requireParams(params, 'username', 'password');
  const scope = checkScope(params.scope, PASSWORD_GRANT_SCOPE);

  const user = await findUserByEmail(ctx.knex, username.trim());
  const passwordOk = await verifyPassword(user?.passwordHash ?? (await decoyHash()), password);
  if (!user || !passwordOk || user.disabled) throw new OAuthError('invalid_grant', BAD_CREDENTIALS);

  return ctx.knex.transaction((trx) => issueTokens(ctx, trx, { user, clientId: client.clientId, scope, familyId: randomUUID() }));
}

/**
 * Pushes revoked access tokens to the shared revocation list (after the database has recorded
 * them). A failure is logged, not thrown: the database revocation already stands (the SSO's own
 * endpoints refuse the token) and the answer to the client must not change.
 */
import type { RevokedAccessToken } from '../data/access-tokens';
import type { OAuthContext } from './context';

export async function publishRevocations(ctx: OAuthContext, tokens: RevokedAccessToken[]): Promise<void> {
  await Promise.all(
    tokens.map((token) =>
      ctx.revocations.revoke(token.jti, token.exp).catch((error: unknown) => {
        ctx.log.error({ err: error, jti: token.jti }, 'could not publish an access-token revocation');
      }),
    ),
  );
}

/** sso.access_tokens: the id of every issued access token, so a token (or its family) can be revoked. */
import type { Knex } from '@fleetgraph/db';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function recordAccessToken(
  db: Knex | Knex.Transaction,
  values: { jti: string; userId: string; familyId: string | null; clientId: string | null; expiresAt: Date },
): Promise<void> {
  await db('sso.access_tokens').insert({
    jti: values.jti,
    user_id: values.userId,
    family_id: values.familyId,
    client_id: values.clientId,
    expires_at: values.expiresAt,
  });
}

/** True when the token id is unknown to this SSO or was revoked. */
export async function isAccessTokenRevoked(db: Knex, jti: string): Promise<boolean> {
  if (!UUID.test(jti)) return true;
  const row = await db('sso.access_tokens').select('revoked_at').where({ jti }).first();
  return !row || row.revoked_at !== null;
}

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

export interface RevokedAccessToken {
  jti: string;
  /** Epoch seconds. */
  exp: number;
}

/** Marks one access token revoked (whether or not it was before). */
export async function revokeAccessToken(db: Knex | Knex.Transaction, jti: string): Promise<void> {
  if (!UUID.test(jti)) return;
  await db('sso.access_tokens').where({ jti }).whereNull('revoked_at').update({ revoked_at: db.fn.now() });
}

export async function findAccessToken(db: Knex, jti: string) {
  if (!UUID.test(jti)) return undefined;
  const row = await db('sso.access_tokens')
    .select('jti', 'client_id', 'revoked_at', 'expires_at')
    .where({ jti })
    .first();
  return row
    ? {
        jti: row.jti as string,
        clientId: row.client_id as string | null,
        revokedAt: row.revoked_at as Date | null,
      }
    : undefined;
}

/**
 * sso.refresh_tokens. The token itself is a random 256-bit base64url string handed to the client
 * once; only its SHA-256 hash is stored. Tokens of one login form a family (family_id): each use
 * rotates the token within the family, and reuse of a rotated token revokes the whole family.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Knex } from '@fleetgraph/db';
import type { RevokedAccessToken } from './access-tokens';

export interface RefreshTokenRow {
  id: string;
  familyId: string;
  userId: string;
  clientId: string | null;
  scope: string;
  expiresAt: Date;
  rotatedAt: Date | null;
  revokedAt: Date | null;
}

export function newRefreshToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashRefreshToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('base64url');
}

/** Stores a new refresh token of a family and returns the plaintext token. */
export async function insertRefreshToken(
  db: Knex | Knex.Transaction,
  values: { familyId: string; userId: string; clientId: string | null; scope: string; ttlSeconds: number },
): Promise<string> {
  const token = newRefreshToken();
  await db('sso.refresh_tokens').insert({
    id: randomUUID(),
    token_hash: hashRefreshToken(token),
    family_id: values.familyId,
    user_id: values.userId,
    client_id: values.clientId,
    scope: values.scope,
    expires_at: new Date(Date.now() + values.ttlSeconds * 1000),
  });
  return token;
}

/** The row of a presented token, locked for the rest of the transaction (rotation is exclusive). */
export async function findRefreshTokenForUpdate(
  trx: Knex.Transaction,
  token: string,
): Promise<RefreshTokenRow | undefined> {
  const row = await trx('sso.refresh_tokens')
    .select('id', 'family_id', 'user_id', 'client_id', 'scope', 'expires_at', 'rotated_at', 'revoked_at')
    .where({ token_hash: hashRefreshToken(token) })
    .forUpdate()
    .first();
  return row ? toRow(row) : undefined;
}

function toRow(row: Record<string, any>): RefreshTokenRow {
  return {
    id: row.id,
    familyId: row.family_id,
    userId: row.user_id,
    clientId: row.client_id,
    scope: row.scope,
    expiresAt: row.expires_at,
    rotatedAt: row.rotated_at,
    revokedAt: row.revoked_at,
  };
}

export async function markRotated(trx: Knex.Transaction, id: string): Promise<void> {
  await trx('sso.refresh_tokens').where({ id }).update({ rotated_at: trx.fn.now() });
}

/** Revokes every refresh token of a family and every access token issued from it; returns the
 * access tokens revoked now (for the shared revocation list, once the transaction commits). */
export async function revokeFamily(
  trx: Knex | Knex.Transaction,
  familyId: string,
): Promise<RevokedAccessToken[]> {
  await trx('sso.refresh_tokens')
    .where({ family_id: familyId })
    .whereNull('revoked_at')
    .update({ revoked_at: trx.fn.now() });
  const rows: { jti: string; expires_at: Date }[] = await trx('sso.access_tokens')
    .where({ family_id: familyId })
    .whereNull('revoked_at')
    .update({ revoked_at: trx.fn.now() })
    .returning(['jti', 'expires_at']);
  return rows.map((row) => ({ jti: row.jti, exp: Math.floor(new Date(row.expires_at).getTime() / 1000) }));
}

/** The unrevoked row of a presented refresh token (no lock), for revocation and introspection. */
export async function findRefreshToken(
  db: Knex | Knex.Transaction,
  token: string,
): Promise<RefreshTokenRow | undefined> {
  const row = await db('sso.refresh_tokens')
    .select('id', 'family_id', 'user_id', 'client_id', 'scope', 'expires_at', 'rotated_at', 'revoked_at')
    .where({ token_hash: hashRefreshToken(token) })
    .first();
  return row ? toRow(row) : undefined;
}

/**
 * Revokes every refresh and access token of a client (its deletion) or of a user (disabled, or
 * password reset); returns the unexpired access tokens, for the shared revocation list.
 */
export async function revokeTokensOf(
  db: Knex,
  owner: { clientId: string } | { userId: string },
): Promise<RevokedAccessToken[]> {
  const where = 'clientId' in owner ? { client_id: owner.clientId } : { user_id: owner.userId };
  await db('sso.refresh_tokens').where(where).whereNull('revoked_at').update({ revoked_at: db.fn.now() });
  const rows: { jti: string; expires_at: Date }[] = await db('sso.access_tokens')
    .where(where)
    .whereNull('revoked_at')
    .where('expires_at', '>', db.fn.now())
    .update({ revoked_at: db.fn.now() })
    .returning(['jti', 'expires_at']);
  return rows.map((row) => ({ jti: row.jti, exp: Math.floor(new Date(row.expires_at).getTime() / 1000) }));
}

/** Revokes the family's unexpired access tokens (slow-path rotation, inside its transaction). */
export async function supersedeAccessTokens(
  trx: Knex.Transaction,
  familyId: string,
): Promise<RevokedAccessToken[]> {
  const rows: { jti: string; expires_at: Date }[] = await trx('sso.access_tokens')
    .where({ family_id: familyId })
    .whereNull('revoked_at')
    .where('expires_at', '>', trx.fn.now())
    .update({ revoked_at: trx.fn.now() })
    .returning(['jti', 'expires_at']);
  return rows.map((row) => ({ jti: row.jti, exp: Math.floor(new Date(row.expires_at).getTime() / 1000) }));
}

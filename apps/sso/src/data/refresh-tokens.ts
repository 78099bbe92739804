/**
 * sso.refresh_tokens. The token itself is a random 256-bit base64url string handed to the client
 * once; only its SHA-256 hash is stored. Tokens of one login form a family (family_id): each use
 * rotates the token within the family, and reuse of a rotated token revokes the whole family.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Knex } from '@fleetgraph/db';
import type { RevokedAccessToken } from './access-tokens';
import type { AuditEvent } from './audit';

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

/** Revokes every refresh and access token of a client (its deletion); returns the access tokens. */
export async function revokeClientTokens(db: Knex, clientId: string): Promise<RevokedAccessToken[]> {
  await db('sso.refresh_tokens')
    .where({ client_id: clientId })
    .whereNull('revoked_at')
    .update({ revoked_at: db.fn.now() });
  const rows: { jti: string; expires_at: Date }[] = await db('sso.access_tokens')
    .where({ client_id: clientId })
    .whereNull('revoked_at')
    .where('expires_at', '>', db.fn.now())
    .update({ revoked_at: db.fn.now() })
    .returning(['jti', 'expires_at']);
  return rows.map((row) => ({ jti: row.jti, exp: Math.floor(new Date(row.expires_at).getTime() / 1000) }));
}

/** A presented token's row with its user (null when the user no longer exists); no lock. */
export interface RefreshTokenWithUser extends RefreshTokenRow {
  user: { id: string; email: string; fullName: string; disabled: boolean } | null;
}

/** One statement, no lock: the row of a presented token joined with its user (fast refresh path). */
export async function findRefreshTokenWithUser(
  db: Knex,
  token: string,
): Promise<RefreshTokenWithUser | undefined> {
  const { rows } = await db.raw(
    `select rt.id, rt.family_id, rt.user_id, rt.client_id, rt.scope, rt.expires_at, rt.rotated_at,
            rt.revoked_at, u.id as u_id, u.email as u_email, u.full_name as u_full_name,
            u.disabled as u_disabled
       from sso.refresh_tokens rt
       left join sso.users u on u.id = rt.user_id
      where rt.token_hash = ?`,
    [hashRefreshToken(token)],
  );
  const row = rows[0] as Record<string, any> | undefined;
  if (!row) return undefined;
  return {
    ...toRow(row),
    user: row.u_id
      ? { id: row.u_id, email: row.u_email, fullName: row.u_full_name, disabled: row.u_disabled }
      : null,
  };
}

/**
 * Rotation as ONE autocommit statement (data-modifying CTEs): marks the token rotated only if it
 * is still unrotated, unrevoked and unexpired and its user exists and is not disabled (the
 * conditional UPDATE is the compare-and-set: of two concurrent uses only one matches the row,
 * the other waits for its row lock and then sees rotated_at set), and only then records the new
 * refresh token of the family, the new access token and the audit row. The token's family, user,
 * client and scope are never updated, so what the caller checked on its unlocked read still holds.
 * The same statement revokes the family's earlier access tokens ("rotated away": a refresh
 * supersedes the access token issued with the previous refresh token); the new one is not among
 * them (all parts of the statement see the same snapshot).
 * Returns the new plaintext refresh token and the superseded access tokens (for the shared
 * revocation list), or undefined when nothing was rotated (nothing written).
 */
export async function rotateRefreshToken(
  db: Knex,
  values: {
    id: string;
    scope: string;
    ttlSeconds: number;
    accessJti: string;
    accessExpiresAt: Date;
    audit: { event: AuditEvent; ip: string | null; detail: Record<string, unknown> };
  },
): Promise<{ refreshToken: string; superseded: RevokedAccessToken[] } | undefined> {
  const token = newRefreshToken();
  const { rows } = await db.raw(
    `with rotated as (
       update sso.refresh_tokens rt
          set rotated_at = now()
        where rt.id = cast(? as uuid)
          and rt.rotated_at is null
          and rt.revoked_at is null
          and rt.expires_at > now()
          and exists (select 1 from sso.users u where u.id = rt.user_id and not u.disabled)
       returning rt.family_id, rt.user_id, rt.client_id
     ), new_refresh as (
       insert into sso.refresh_tokens (id, token_hash, family_id, user_id, client_id, scope, expires_at)
       select cast(? as uuid), cast(? as text), family_id, user_id, client_id, cast(? as text),
              cast(? as timestamptz)
         from rotated
     ), new_access as (
       insert into sso.access_tokens (jti, user_id, family_id, client_id, expires_at)
       select cast(? as uuid), user_id, family_id, client_id, cast(? as timestamptz)
         from rotated
     ), logged as (
       insert into sso.audit_log (event, user_id, client_id, ip, detail)
       select cast(? as text), user_id, client_id, cast(? as text), cast(? as jsonb)
         from rotated
     ), superseded as (
       update sso.access_tokens at
          set revoked_at = now()
        where at.family_id = (select family_id from rotated)
          and at.revoked_at is null
          and at.expires_at > now()
       returning at.jti, at.expires_at
     )
     select (select count(*)::int from rotated) as rotated,
            coalesce((select json_agg(json_build_object(
                        'jti', jti, 'exp', floor(extract(epoch from expires_at))::bigint))
                        from superseded), '[]'::json) as superseded`,
    [
      values.id,
      randomUUID(),
      hashRefreshToken(token),
      values.scope,
      new Date(Date.now() + values.ttlSeconds * 1000),
      values.accessJti,
      values.accessExpiresAt,
      values.audit.event,
      values.audit.ip,
      JSON.stringify(values.audit.detail),
    ],
  );
  const row = rows[0] as { rotated: number; superseded: RevokedAccessToken[] } | undefined;
  return row?.rotated === 1 ? { refreshToken: token, superseded: row.superseded } : undefined;
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

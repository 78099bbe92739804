/**
 * sso.authorization_codes. The code is a random 256-bit base64url string handed to the client
 * once (in the redirect); only its SHA-256 is stored. Each code carries the token family its
 * tokens will belong to, so a replayed code can revoke them all.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Knex } from '@fleetgraph/db';

/** RFC 6749 4.1.2 recommends at most 10 minutes. */
export const CODE_TTL_SECONDS = 600;

export interface AuthorizationCode {
  codeHash: string;
  clientId: string;
  userId: string;
  redirectUri: string;
  redirectUriGiven: boolean;
  scope: string;
  codeChallenge: string | null;
  codeChallengeMethod: string | null;
  familyId: string;
  expiresAt: Date;
  usedAt: Date | null;
}

export function hashCode(code: string): string {
  return createHash('sha256').update(code, 'utf8').digest('base64url');
}

export async function insertAuthorizationCode(
  db: Knex,
  values: {
    clientId: string;
    userId: string;
    redirectUri: string;
    redirectUriGiven: boolean;
    scope: string;
    codeChallenge: string | null;
    codeChallengeMethod: string | null;
  },
): Promise<string> {
  const code = randomBytes(32).toString('base64url');
  await db('sso.authorization_codes').insert({
    code_hash: hashCode(code),
    client_id: values.clientId,
    user_id: values.userId,
    redirect_uri: values.redirectUri,
    redirect_uri_given: values.redirectUriGiven,
    scope: values.scope,
    code_challenge: values.codeChallenge,
    code_challenge_method: values.codeChallengeMethod,
    family_id: randomUUID(),
    expires_at: new Date(Date.now() + CODE_TTL_SECONDS * 1000),
  });
  return code;
}

/** The row of a presented code, locked for the rest of the transaction (redemption is exclusive). */
export async function findCodeForUpdate(
  trx: Knex.Transaction,
  code: string,
): Promise<AuthorizationCode | undefined> {
  const row = await trx('sso.authorization_codes')
    .select(
      'code_hash',
      'client_id',
      'user_id',
      'redirect_uri',
      'redirect_uri_given',
      'scope',
      'code_challenge',
      'code_challenge_method',
      'family_id',
      'expires_at',
      'used_at',
    )
    .where({ code_hash: hashCode(code) })
    .forUpdate()
    .first();
  if (!row) return undefined;
  return {
    codeHash: row.code_hash,
    clientId: row.client_id,
    userId: row.user_id,
    redirectUri: row.redirect_uri,
    redirectUriGiven: row.redirect_uri_given,
    scope: row.scope,
    codeChallenge: row.code_challenge,
    codeChallengeMethod: row.code_challenge_method,
    familyId: row.family_id,
    expiresAt: row.expires_at,
    usedAt: row.used_at,
  };
}

export async function markCodeUsed(trx: Knex.Transaction, codeHash: string): Promise<void> {
  await trx('sso.authorization_codes').where({ code_hash: codeHash }).update({ used_at: trx.fn.now() });
}

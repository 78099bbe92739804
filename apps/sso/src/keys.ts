/**
 * Signing keys.
 * - RS256 only: an RSA 2048 key generated at first start when no active key exists, kept in
 *   sso.signing_keys (private and public JWK) so every instance signs with the same key;
 * - kid = RFC 7638 JWK thumbprint of the public key;
 * - two instances starting at once on an empty table create one key, not two: the check and the
 *   insert run under a transaction-scoped advisory lock;
 * - the active key is the newest activated, non-retired one; the JWKS publishes every
 *   non-retired public key, so tokens signed before a rotation keep verifying;
 * - a token naming a kid this instance has not loaded (another instance rotated) triggers one
 *   reload from the database, at most every RELOAD_COOLDOWN_MS.
 */
import {
  calculateJwkThumbprint,
  createLocalJWKSet,
  errors as joseErrors,
  exportJWK,
  generateKeyPair,
  importJWK,
  type CryptoKey,
  type JWK,
  type JWTVerifyGetKey,
} from 'jose';
import type { Knex } from '@fleetgraph/db';

export const SIGNING_ALG = 'RS256';
/** pg_advisory_xact_lock key guarding first-start key creation (any constant unique to this use). */
const KEY_CREATION_LOCK = 4_100_001;
const RELOAD_COOLDOWN_MS = 30_000;

export interface PublicJwk {
  kid: string;
  kty: string;
  n: string;
  e: string;
  alg: typeof SIGNING_ALG;
  use: 'sig';
}

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
}

export interface KeyStore {
  /** The key new tokens are signed with. */
  active(): SigningKey;
  /** Every non-retired public key, as published on /.well-known/jwks.json. */
  publicKeys(): PublicJwk[];
  /** A jose key resolver over the published keys (for verifying our own tokens). */
  resolver: JWTVerifyGetKey;
  reload(): Promise<void>;
}

interface KeyRow {
  kid: string;
  private_jwk: JWK;
  public_jwk: JWK;
  activated_at: Date | null;
}

function toPublicJwk(kid: string, jwk: JWK): PublicJwk {
  if (jwk.kty !== 'RSA' || !jwk.n || !jwk.e) throw new Error(`signing key ${kid} is not an RSA public key`);
  return { kid, kty: jwk.kty, n: jwk.n, e: jwk.e, alg: SIGNING_ALG, use: 'sig' };
}

/** Creates and activates a signing key unless an active one exists; returns the active kid. */
export async function ensureSigningKey(knex: Knex): Promise<string> {
  return knex.transaction(async (trx) => {
    await trx.raw('select pg_advisory_xact_lock(?)', [KEY_CREATION_LOCK]);
    const existing = await trx('sso.signing_keys')
      .select('kid')
      .whereNotNull('activated_at')
      .whereNull('retired_at')
      .orderBy('activated_at', 'desc')
      .first();
    if (existing) return existing.kid as string;

    const { publicKey, privateKey } = await generateKeyPair(SIGNING_ALG, { modulusLength: 2048, extractable: true });
    const publicJwk = await exportJWK(publicKey);
    const privateJwk = await exportJWK(privateKey);
    const kid = await calculateJwkThumbprint(publicJwk, 'sha256');
    await trx('sso.signing_keys').insert({
      kid,
      alg: SIGNING_ALG,
      private_jwk: JSON.stringify({ ...privateJwk, kid, alg: SIGNING_ALG, use: 'sig' }),
      public_jwk: JSON.stringify(toPublicJwk(kid, publicJwk)),
      activated_at: trx.fn.now(),
    });
    return kid;
  });
}

export async function loadKeyStore(knex: Knex): Promise<KeyStore> {
  let activeKey: SigningKey | undefined;
  let published: PublicJwk[] = [];
  let localSet = createLocalJWKSet({ keys: [] });
  let lastReload = 0;

  async function reload(): Promise<void> {
    const rows: KeyRow[] = await knex('sso.signing_keys')
      .select('kid', 'private_jwk', 'public_jwk', 'activated_at')
      .whereNull('retired_at')
      .orderBy([{ column: 'activated_at', order: 'desc', nulls: 'last' }, { column: 'created_at', order: 'desc' }]);
    const activeRow = rows.find((row) => row.activated_at !== null);
    if (!activeRow) throw new Error('no active signing key in sso.signing_keys');
    activeKey = { kid: activeRow.kid, privateKey: (await importJWK(activeRow.private_jwk, SIGNING_ALG)) as CryptoKey };
    published = rows.map((row) => toPublicJwk(row.kid, row.public_jwk));
    localSet = createLocalJWKSet({ keys: published });
    lastReload = Date.now();
  }

  await reload();

  const resolver: JWTVerifyGetKey = async (header, token) => {
    try {
      return await localSet(header, token);
    } catch (error) {
      if (!(error instanceof joseErrors.JWKSNoMatchingKey) || Date.now() - lastReload < RELOAD_COOLDOWN_MS) throw error;
      await reload();
      return localSet(header, token);
    }
  };

  return {
    active: () => activeKey!,
    publicKeys: () => published,
    resolver,
    reload,
  };
}

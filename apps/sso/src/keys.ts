/**
 * Signing keys.
 * - RS256 only: an RSA 2048 key generated at first start when no active key exists, kept in
 *   sso.signing_keys (private and public JWK) so every instance signs with the same key;
 * - kid = RFC 7638 JWK thumbprint of the public key;
 * - two instances starting at once on an empty table create one key, not two: the check and the
 *   insert run under a transaction-scoped advisory lock;
 * - rotation (rotateSigningKey, CLI `keys rotate`): the new key is published in the JWKS at once
 *   but signs only from its activated_at, ROTATION_DELAY_SECONDS later by default (longer than
 *   the JWKS cache age plus the store's reload interval, so every verifier knows it before it
 *   signs); the previous key retires at that same moment and stays published for the retention
 *   period (the access-token lifetime, 7200 s) so the tokens it signed keep verifying;
 * - the active key at time t is the newest one with activated_at <= t and not retired at t;
 *   the JWKS publishes every key not retired, or retired less than the retention period ago;
 * - each store reloads from the database at most every RELOAD_INTERVAL_MS in the background, so a
 *   rotation done by the CLI or another instance is picked up before the new key activates;
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
import { isSealed, type KeyCipher, type SealedJwk } from './key-encryption';
import type { Knex } from '@fleetgraph/db';

export const SIGNING_ALG = 'RS256';
/** pg_advisory_xact_lock key guarding first-start key creation (any constant unique to this use). */
const KEY_CREATION_LOCK = 4_100_001;
const RELOAD_COOLDOWN_MS = 30_000;
const RELOAD_INTERVAL_MS = 60_000;
export const ROTATION_DELAY_SECONDS = 600;
export const DEFAULT_RETENTION_SECONDS = 7200;

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
  private_jwk: JWK | SealedJwk;
  public_jwk: JWK;
  activated_at: Date | null;
  retired_at: Date | null;
}

interface LoadedKey {
  kid: string;
  publicJwk: PublicJwk;
  privateKey: CryptoKey;
  activatedAt: number | null;
  retiredAt: number | null;
}

async function newKeyValues(
  cipher?: KeyCipher,
): Promise<{ kid: string; private_jwk: string; public_jwk: string }> {
  const { publicKey, privateKey } = await generateKeyPair(SIGNING_ALG, {
    modulusLength: 2048,
    extractable: true,
  });
  const publicJwk = await exportJWK(publicKey);
  const privateJwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint(publicJwk, 'sha256');
  return {
    kid,
    private_jwk: JSON.stringify(sealed(cipher, { ...privateJwk, kid, alg: SIGNING_ALG, use: 'sig' })),
    public_jwk: JSON.stringify(toPublicJwk(kid, publicJwk)),
  };
}

const sealed = (cipher: KeyCipher | undefined, jwk: JWK) => (cipher ? cipher.seal(jwk) : jwk);

/**
 * Seals every stored private key not yet sealed under the current encryption key (plain rows of
 * an older start, rows of a previous encryption key). A row no configured key opens stops the start.
 */
export async function sealStoredKeys(knex: Knex, cipher: KeyCipher): Promise<number> {
  return knex.transaction(async (trx) => {
    await trx.raw('select pg_advisory_xact_lock(?)', [KEY_CREATION_LOCK]);
    const rows: Pick<KeyRow, 'kid' | 'private_jwk'>[] = await trx('sso.signing_keys').select(
      'kid',
      'private_jwk',
    );
    let resealed = 0;
    for (const row of rows) {
      if (cipher.isCurrent(row.private_jwk)) continue;
      const jwk = cipher.open(row.private_jwk, row.kid);
      await trx('sso.signing_keys')
        .where({ kid: row.kid })
        .update({ private_jwk: JSON.stringify(cipher.seal(jwk)) });
      resealed += 1;
    }
    return resealed;
  });
}

function toPublicJwk(kid: string, jwk: JWK): PublicJwk {
  if (jwk.kty !== 'RSA' || !jwk.n || !jwk.e) throw new Error(`signing key ${kid} is not an RSA public key`);
  return { kid, kty: jwk.kty, n: jwk.n, e: jwk.e, alg: SIGNING_ALG, use: 'sig' };
}

/** Creates and activates a signing key unless an active one exists; returns the active kid. */
export async function ensureSigningKey(knex: Knex, cipher?: KeyCipher): Promise<string> {
  return knex.transaction(async (trx) => {
    await trx.raw('select pg_advisory_xact_lock(?)', [KEY_CREATION_LOCK]);
    const existing = await trx('sso.signing_keys')
      .select('kid')
      .where('activated_at', '<=', trx.fn.now())
      .where((q) => q.whereNull('retired_at').orWhere('retired_at', '>', trx.fn.now()))
      .orderBy('activated_at', 'desc')
      .first();
    if (existing) return existing.kid as string;

    const values = await newKeyValues(cipher);
    await trx('sso.signing_keys').insert({ ...values, alg: SIGNING_ALG, activated_at: trx.fn.now() });
    return values.kid;
  });
}

/**
 * Publishes a new key now that signs from `delaySeconds` on; every key not yet retired retires
 * at that moment. Returns the new kid and its activation time.
 */
export async function rotateSigningKey(
  knex: Knex,
  options: { delaySeconds?: number; cipher?: KeyCipher } = {},
): Promise<{ kid: string; activatesAt: Date }> {
  const delay = options.delaySeconds ?? ROTATION_DELAY_SECONDS;
  const values = await newKeyValues(options.cipher);
  return knex.transaction(async (trx) => {
    await trx.raw('select pg_advisory_xact_lock(?)', [KEY_CREATION_LOCK]);
    const at = (
      (await trx.raw(`select now() + make_interval(secs => ?) as at`, [delay])).rows as { at: Date }[]
    )[0]!.at;
    await trx('sso.signing_keys')
      .where((q) => q.whereNull('retired_at').orWhere('retired_at', '>', at))
      .update({ retired_at: at });
    await trx('sso.signing_keys').insert({ ...values, alg: SIGNING_ALG, activated_at: at });
    return { kid: values.kid, activatesAt: at };
  });
}

export async function listSigningKeys(
  knex: Knex,
): Promise<{ kid: string; createdAt: Date; activatedAt: Date | null; retiredAt: Date | null }[]> {
  const rows = await knex('sso.signing_keys')
    .select('kid', 'created_at', 'activated_at', 'retired_at')
    .orderBy('created_at');
  return rows.map((row) => ({
    kid: row.kid,
    createdAt: row.created_at,
    activatedAt: row.activated_at,
    retiredAt: row.retired_at,
  }));
}

function openKey(cipher: KeyCipher | undefined, row: KeyRow): JWK {
  if (cipher) return cipher.open(row.private_jwk, row.kid);
  if (isSealed(row.private_jwk))
    throw new Error(
      `signing key ${row.kid} is encrypted: set SSO_KEY_ENCRYPTION_KEY to the key it was sealed with`,
    );
  return row.private_jwk;
}

export async function loadKeyStore(
  knex: Knex,
  options: {
    retentionSeconds?: number;
    /** The clock, in epoch ms (default Date.now; tests pass their own to reach an activation time). */
    now?: () => number;
    /** Opens sealed private keys (key-encryption.ts). */
    cipher?: KeyCipher;
  } = {},
): Promise<KeyStore> {
  const clock = options.now ?? Date.now;
  const retentionMs = (options.retentionSeconds ?? DEFAULT_RETENTION_SECONDS) * 1000;
  let loaded: LoadedKey[] = [];
  let localSet = createLocalJWKSet({ keys: [] });
  let lastReload = 0;
  let reloading: Promise<void> | undefined;

  const isPublished = (key: LoadedKey, now: number) =>
    key.retiredAt === null || key.retiredAt + retentionMs > now;
  const published = (now = clock()) =>
    loaded.filter((key) => isPublished(key, now)).map((key) => key.publicJwk);

  async function reload(): Promise<void> {
    const rows: KeyRow[] = await knex('sso.signing_keys')
      .select('kid', 'private_jwk', 'public_jwk', 'activated_at', 'retired_at')
      .where((q) =>
        q
          .whereNull('retired_at')
          .orWhere('retired_at', '>', knex.raw(`now() - make_interval(secs => ?)`, [retentionMs / 1000])),
      )
      .orderBy([
        { column: 'activated_at', order: 'desc', nulls: 'last' },
        { column: 'created_at', order: 'desc' },
      ]);
    const keys: LoadedKey[] = [];
    for (const row of rows) {
      keys.push({
        kid: row.kid,
        publicJwk: toPublicJwk(row.kid, row.public_jwk),
        privateKey: (await importJWK(openKey(options.cipher, row), SIGNING_ALG)) as CryptoKey,
        activatedAt: row.activated_at ? new Date(row.activated_at).getTime() : null,
        retiredAt: row.retired_at ? new Date(row.retired_at).getTime() : null,
      });
    }
    loaded = keys;
    localSet = createLocalJWKSet({ keys: published() });
    lastReload = clock();
    if (!activeAt(clock())) throw new Error('no active signing key in sso.signing_keys');
  }

  function activeAt(now: number): LoadedKey | undefined {
    return loaded.find(
      (key) =>
        key.activatedAt !== null && key.activatedAt <= now && (key.retiredAt === null || key.retiredAt > now),
    );
  }

  function backgroundReload() {
    if (reloading || clock() - lastReload < RELOAD_INTERVAL_MS) return;
    reloading = reload()
      .catch(() => {})
      .finally(() => {
        reloading = undefined;
      });
  }

  await reload();

  const resolver: JWTVerifyGetKey = async (header, token) => {
    backgroundReload();
    try {
      return await localSet(header, token);
    } catch (error) {
      if (!(error instanceof joseErrors.JWKSNoMatchingKey) || clock() - lastReload < RELOAD_COOLDOWN_MS)
        throw error;
      await reload();
      return localSet(header, token);
    }
  };

  return {
    active() {
      backgroundReload();
      const now = clock();
      // Past a scheduled activation the newest due key signs even before a reload; a store whose
      // only key retired (no successor loaded yet) keeps signing with it until the reload lands.
      const key = activeAt(now) ?? loaded.find((k) => k.activatedAt !== null && k.activatedAt <= now)!;
      return { kid: key.kid, privateKey: key.privateKey };
    },
    publicKeys: () => {
      backgroundReload();
      return published();
    },
    resolver,
    reload,
  };
}

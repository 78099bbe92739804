/**
 * Signing keys encrypted at rest: the private JWK in sso.signing_keys is sealed with AES-256-GCM
 * under a key from the environment (SSO_KEY_ENCRYPTION_KEY, 32+ characters; its SHA-256 is the
 * AES key). A sealed row is `{ "sealed": "A256GCM", "keyId", "iv", "tag", "data" }` in the same
 * column: `keyId` names the encryption key (a hash of it, never the key), so a rotation can keep
 * the previous key (SSO_KEY_ENCRYPTION_KEY_PREVIOUS) to open old rows while start re-seals
 * them under the current one. Plain rows (an older database, or no key configured) are sealed
 * at the first start that has a key.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { JWK } from 'jose';
import { readDevSecrets } from '@fleetgraph/service-kit';

export interface SealedJwk {
  sealed: 'A256GCM';
  keyId: string;
  iv: string;
  tag: string;
  data: string;
}

export interface KeyCipher {
  seal(jwk: JWK): SealedJwk;
  /** The private JWK of a stored value, sealed or plain; a seal no configured key opens throws. */
  open(stored: JWK | SealedJwk, kid: string): JWK;
  /** True when the stored value is sealed under the current key (nothing to re-seal). */
  isCurrent(stored: JWK | SealedJwk): boolean;
}

export const isSealed = (stored: JWK | SealedJwk): stored is SealedJwk =>
  (stored as SealedJwk).sealed === 'A256GCM';

const keyIdOf = (secret: string) =>
  createHash('sha256').update(`fleetgraph-key-id:${secret}`).digest('hex').slice(0, 16);
const aesKeyOf = (secret: string) => createHash('sha256').update(secret).digest();

export function createKeyCipher(current: string, previous: string[] = []): KeyCipher {
  if (current.length < 32) throw new Error('SSO_KEY_ENCRYPTION_KEY must have at least 32 characters');
  const keys = new Map([current, ...previous].map((secret) => [keyIdOf(secret), aesKeyOf(secret)]));
  const currentId = keyIdOf(current);
  return {
    seal(jwk) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', keys.get(currentId)!, iv);
      const data = Buffer.concat([cipher.update(JSON.stringify(jwk), 'utf8'), cipher.final()]);
      return {
        sealed: 'A256GCM',
        keyId: currentId,
        iv: iv.toString('base64url'),
        tag: cipher.getAuthTag().toString('base64url'),
        data: data.toString('base64url'),
      };
    },
    open(stored, kid) {
      if (!isSealed(stored)) return stored;
      const key = keys.get(stored.keyId);
      if (!key)
        throw new Error(
          `signing key ${kid} is sealed with encryption key ${stored.keyId}, which neither SSO_KEY_ENCRYPTION_KEY nor SSO_KEY_ENCRYPTION_KEY_PREVIOUS is`,
        );
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(stored.iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(stored.tag, 'base64url'));
      const plain = Buffer.concat([decipher.update(Buffer.from(stored.data, 'base64url')), decipher.final()]);
      return JSON.parse(plain.toString('utf8')) as JWK;
    },
    isCurrent: (stored) => isSealed(stored) && stored.keyId === currentId,
  };
}

/** The cipher of a configuration with an encryption key; undefined: keys are stored plain. */
export function keyCipherOf(config: { keyEncryptionKey?: string; previousKeyEncryptionKeys?: string[] }) {
  return config.keyEncryptionKey
    ? createKeyCipher(config.keyEncryptionKey, config.previousKeyEncryptionKeys ?? [])
    : undefined;
}

/**
 * On the embedded database of `npm start` and without SSO_KEY_ENCRYPTION_KEY, the key that
 * `npm start` generated for that database (its dev secrets): a tool working there (the admin CLI's
 * `keys rotate`) seals keys like the SSO does instead of storing them in the clear.
 */
export function withDevKeyEncryption<C extends { keyEncryptionKey?: string }>(
  settings: C,
  database: { embedded: boolean; dataDir: string },
): C {
  if (settings.keyEncryptionKey || !database.embedded) return settings;
  const devKey = readDevSecrets(database.dataDir)?.keyEncryptionKey;
  return devKey ? { ...settings, keyEncryptionKey: devKey } : settings;
}

/**
 * Development secrets, generated at first start and kept in the data folder's secrets folder
 * (secret-files.ts: 0700, the file 0600, git-ignored) so that paging cursors stay valid across
 * restarts. Production sets them through the environment. `npm start` writes them
 * (loadDevSecrets); tools working on that platform's embedded database (the SSO admin CLI) read
 * them (readDevSecrets) so that, say, a rotated signing key is sealed under the same key as the
 * ones `npm start` sealed. Besides the platform's own, each subgraph may declare secrets of its
 * own (its manifest's `secrets`, by environment variable): each is generated once here too.
 * A data folder of an older start kept the file at its top (`dev-secrets.json`): it is moved.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ensureSecretsDir, readSecretFile, secretsDir, writeSecretFile } from './secret-files';

export interface DevSecrets {
  pagingSecret: string;
  /** The explorer's OAuth client at the SSO (registered by startPlatform). */
  explorerClientId: string;
  explorerClientSecret: string;
  /** SUBGRAPH_SHARED_SECRET: the subgraphs answer the gateway only. */
  subgraphSecret: string;
  /** SSO_KEY_ENCRYPTION_KEY: the SSO's signing keys are sealed with it in the database. */
  keyEncryptionKey: string;
  /** The secrets subgraphs declare, by environment variable (e.g. DVIR_FILE_URL_SECRET). */
  declared: Record<string, string>;
}

const random = () => randomBytes(32).toString('base64url');

function generate(): DevSecrets {
  return {
    pagingSecret: random(),
    explorerClientId: `fg_explorer_${randomBytes(8).toString('base64url')}`,
    explorerClientSecret: random(),
    subgraphSecret: random(),
    keyEncryptionKey: random(),
    declared: {},
  };
}

/** Where `npm start` keeps the development secrets of a data folder. */
export const devSecretsFile = (dataDir: string) => join(secretsDir(dataDir), 'dev-secrets.json');
const legacyFile = (dataDir: string) => join(dataDir, 'dev-secrets.json');

function stored(dataDir: string): Partial<DevSecrets> | undefined {
  const text = readSecretFile(devSecretsFile(dataDir)) ?? readSecretFile(legacyFile(dataDir));
  return text === undefined ? undefined : (JSON.parse(text) as Partial<DevSecrets>);
}

/** The secrets `npm start` generated in this data folder, if it ever ran there (nothing written). */
export function readDevSecrets(dataDir: string): Partial<DevSecrets> | undefined {
  return stored(dataDir);
}

/**
 * Reads the secrets, adding any a newer version introduced and any of `declared` (environment
 * variable names) not generated yet; existing ones are kept.
 */
export function loadDevSecrets(dataDir: string, declared: readonly string[] = []): DevSecrets {
  const kept = stored(dataDir) ?? {};
  const secrets: DevSecrets = { ...generate(), ...kept, declared: { ...kept.declared } };
  for (const name of declared) secrets.declared[name] ??= random();
  const added =
    Object.keys(secrets).some((key) => !(key in kept)) ||
    declared.some((name) => !(name in (kept.declared ?? {})));
  if (added || !existsSync(devSecretsFile(dataDir))) {
    ensureSecretsDir(dataDir);
    writeSecretFile(devSecretsFile(dataDir), JSON.stringify(secrets, null, 2));
  }
  rmSync(legacyFile(dataDir), { force: true });
  return secrets;
}

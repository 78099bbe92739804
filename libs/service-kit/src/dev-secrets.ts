/**
 * Development secrets, generated at first start and kept in the git-ignored data folder so that
 * paging cursors stay valid across restarts. Production sets them through the environment.
 * `npm start` writes them (loadDevSecrets); tools working on that platform's embedded database
 * (the SSO admin CLI) read them (readDevSecrets) so that, say, a rotated signing key is sealed
 * under the same key as the ones `npm start` sealed.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface DevSecrets {
  pagingSecret: string;
  /** The explorer's OAuth client at the SSO (registered by startPlatform). */
  explorerClientId: string;
  explorerClientSecret: string;
  /** SUBGRAPH_SHARED_SECRET: the subgraphs answer the gateway only. */
  subgraphSecret: string;
  /** SSO_KEY_ENCRYPTION_KEY: the SSO's signing keys are sealed with it in the database. */
  keyEncryptionKey: string;
}

function generate(): DevSecrets {
  return {
    pagingSecret: randomBytes(32).toString('base64url'),
    explorerClientId: `fg_explorer_${randomBytes(8).toString('base64url')}`,
    explorerClientSecret: randomBytes(32).toString('base64url'),
    subgraphSecret: randomBytes(32).toString('base64url'),
    keyEncryptionKey: randomBytes(32).toString('base64url'),
  };
}

const secretsFile = (dataDir: string) => join(dataDir, 'dev-secrets.json');

/** The secrets `npm start` generated in this data folder, if it ever ran there (nothing written). */
export function readDevSecrets(dataDir: string): Partial<DevSecrets> | undefined {
  const path = secretsFile(dataDir);
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Partial<DevSecrets>) : undefined;
}

/** Reads the secrets, adding any a newer version introduced (existing ones are kept). */
export function loadDevSecrets(dataDir: string): DevSecrets {
  const path = secretsFile(dataDir);
  const stored = existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Partial<DevSecrets>) : {};
  const secrets = { ...generate(), ...stored };
  if (Object.keys(secrets).some((key) => !(key in stored))) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(path, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  }
  return secrets;
}

/**
 * Development secrets, generated at first start and kept in the git-ignored data folder so that
 * paging cursors stay valid across restarts. Production sets them through the environment.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface DevSecrets {
  pagingSecret: string;
}

export function loadDevSecrets(dataDir: string): DevSecrets {
  const path = join(dataDir, 'dev-secrets.json');
  if (existsSync(path)) return JSON.parse(readFileSync(path, 'utf8')) as DevSecrets;
  mkdirSync(dataDir, { recursive: true });
  const secrets: DevSecrets = { pagingSecret: randomBytes(32).toString('base64url') };
  writeFileSync(path, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

/**
 * Where the secrets generated for a data folder live: its `secrets` folder (0700, files 0600),
 * apart from everything a service reads or serves (the embedded database's cluster, dvir's file
 * store): the development secrets `npm start` generates and the embedded database's superuser
 * password. A file is written whole or not at all (a temporary file renamed into place).
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';

/** The secrets folder of a data folder. */
export const secretsDir = (dataDir: string) => join(dataDir, 'secrets');

/** Creates the secrets folder (owner only, even if it existed with wider rights); answers it. */
export function ensureSecretsDir(dataDir: string): string {
  const dir = secretsDir(dataDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  return dir;
}

/** A secret file's text, or undefined when there is none. */
export function readSecretFile(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Writes a secret file readable by its owner only, atomically. */
export function writeSecretFile(path: string, text: string): void {
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(temporary, text, { mode: 0o600 });
  renameSync(temporary, path);
}

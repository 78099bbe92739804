/**
 * The embedded server's superuser password: random, generated when its cluster is created and
 * kept in the data folder's secrets folder (`secrets/postgres-password`, owner only), never the
 * well-known `postgres`, which let any local process read every tenant's data over TCP. Whatever
 * finds the embedded server (`npm start`, `npm test`'s own server, the admin CLI, the import and
 * seed tools, benchmarks) reads it from there.
 *
 * A cluster an older start created has the well-known password and no file: at its next start
 * the password is replaced by a random one. The new password is written first (`.next`), then
 * set in the server, then the file is renamed into place, so an interrupted rotation is finished
 * by the next start rather than locking the cluster out.
 */
import { randomBytes } from 'node:crypto';
import { renameSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { ensureSecretsDir, readSecretFile, secretsDir, writeSecretFile } from '@fleetgraph/service-kit';

/** The password an older start gave every embedded cluster. */
export const WELL_KNOWN_PASSWORD = 'postgres';

/** Where the embedded server's superuser password is kept, for a data folder. */
export const embeddedPasswordFile = (dataDir: string) => join(secretsDir(dataDir), 'postgres-password');
const pendingFile = (dataDir: string) => `${embeddedPasswordFile(dataDir)}.next`;

const generated = () => randomBytes(24).toString('base64url');

/** The superuser password of the data folder's embedded cluster, if it has one on file. */
export function readEmbeddedPassword(dataDir: string): string | undefined {
  return readSecretFile(embeddedPasswordFile(dataDir))?.trim() || undefined;
}

/** The password an embedded server found running on this data folder was started with. */
export function requireEmbeddedPassword(dataDir: string): string {
  const password = readEmbeddedPassword(dataDir);
  if (password) return password;
  throw new Error(
    `the embedded PostgreSQL running on ${dataDir} has no password file (${embeddedPasswordFile(dataDir)}): ` +
      'it was started by an older version; stop it and start again (npm start) to secure it',
  );
}

/** A password for a cluster about to be created, already on file. */
export function newClusterPassword(dataDir: string): string {
  const password = generated();
  ensureSecretsDir(dataDir);
  writeSecretFile(embeddedPasswordFile(dataDir), `${password}\n`);
  return password;
}

/** Whether the superuser signs in with this password (false when the server says it is wrong). */
async function signsIn(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, application_name: 'fleetgraph-password' });
  try {
    await client.connect();
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === '28P01') return false;
    throw error;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * The password of a running cluster that has none on file (an older start's): the well-known one
 * is replaced by a random one, kept on file. `urlWith` is the superuser URL with a password.
 */
export async function rotateWellKnownPassword(
  dataDir: string,
  urlWith: (password: string) => string,
): Promise<string> {
  ensureSecretsDir(dataDir);
  let next = readSecretFile(pendingFile(dataDir))?.trim();
  if (!next) writeSecretFile(pendingFile(dataDir), `${(next = generated())}\n`);
  if (!(await signsIn(urlWith(next)))) {
    const client = new pg.Client({ connectionString: urlWith(WELL_KNOWN_PASSWORD) });
    try {
      await client.connect();
    } catch (error) {
      if ((error as { code?: string }).code !== '28P01') throw error;
      throw new Error(
        `the superuser password of the embedded database in ${dataDir} is unknown: ` +
          `${embeddedPasswordFile(dataDir)} is missing. Restore that file, or remove ${join(dataDir, 'pg')} ` +
          '(its data is lost) to start afresh.',
      );
    }
    try {
      await client.query(`alter role current_user with password ${client.escapeLiteral(next)}`);
    } finally {
      await client.end().catch(() => {});
    }
  }
  renameSync(pendingFile(dataDir), embeddedPasswordFile(dataDir));
  return next;
}

/**
 * Reads from a standby: a service's read-only statements may go to their own pool (a streaming
 * hot standby, `DATABASE_READ_URL`), while whatever writes, or must see its own write, stays on
 * the primary: migrations, seeds, imports, the SSO, the revocation list's LISTEN (a standby
 * cannot LISTEN). Without a read URL both pools are the same knex.
 */
import { createKnex, type Knex, type KnexOptions } from './knex';

export interface DatabasePools {
  /** Writes, migrations, and reads that must see this process's own writes. */
  primary: Knex;
  /** Read-only statements (the primary itself when no read URL is configured). */
  reads: Knex;
  /** True when reads have a pool of their own. */
  separateReads: boolean;
  destroy(): Promise<void>;
}

/** The application_name of the read pool's connections, so a standby's pg_stat_activity names them. */
export const readsApplicationName = (applicationName: string) => `${applicationName}-reads`;

export function createDatabasePools(options: KnexOptions & { readUrl?: string | undefined }): DatabasePools {
  const { readUrl, ...primaryOptions } = options;
  const primary = createKnex(primaryOptions);
  if (!readUrl || readUrl === options.url)
    return { primary, reads: primary, separateReads: false, destroy: () => primary.destroy() };
  const reads = createKnex({
    ...primaryOptions,
    url: readUrl,
    applicationName: readsApplicationName(options.applicationName ?? 'fleetgraph'),
  });
  return {
    primary,
    reads,
    separateReads: true,
    destroy: async () => {
      await Promise.all([reads.destroy(), primary.destroy()]);
    },
  };
}

/**
 * The read URL a given app connects with: the standby's address and database with the app's own
 * credentials (roles and passwords are cluster-wide, so a streaming standby has the same ones).
 * Used when each app connects as its own role (libs/db roles.ts) and one read URL is configured.
 */
export function readUrlAs(readUrl: string, appUrl: string): string {
  const read = new URL(readUrl);
  const app = new URL(appUrl);
  read.username = app.username;
  read.password = app.password;
  return read.toString();
}

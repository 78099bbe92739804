/**
 * Removal of records that can no longer matter, so the SSO's tables stay the size of what is live:
 * - refresh and access tokens, authorization codes: a day after they expired (an expired one is
 *   refused by its expiry alone; the day of grace keeps recent ones for the audit of a dispute).
 *   Rotated refresh tokens that have NOT expired stay: presenting one again is reuse, which must
 *   still revoke its family;
 * - sign-in sessions once expired; throttling failures once out of their window;
 * - audit rows older than the retention period (AUDIT_RETENTION_DAYS, default 365).
 * Each table is one DELETE; several instances may run it at once.
 */
import type { Knex } from '@fleetgraph/db';
import { WINDOW_SECONDS } from './throttle';

export const EXPIRED_GRACE_SECONDS = 24 * 3600;

export interface PurgeCounts {
  refreshTokens: number;
  accessTokens: number;
  authorizationCodes: number;
  sessions: number;
  authFailures: number;
  auditLog: number;
}

export async function purgeExpired(db: Knex, options: { auditRetentionDays: number }): Promise<PurgeCounts> {
  const before = (seconds: number) => db.raw(`now() - make_interval(secs => ?)`, [seconds]);
  const expired = (table: string) =>
    db(table).where('expires_at', '<', before(EXPIRED_GRACE_SECONDS)).delete();
  return {
    refreshTokens: await expired('sso.refresh_tokens'),
    accessTokens: await expired('sso.access_tokens'),
    authorizationCodes: await expired('sso.authorization_codes'),
    sessions: await db('sso.sessions').where('expires_at', '<', db.fn.now()).delete(),
    authFailures: await db('sso.auth_failures').where('at', '<', before(WINDOW_SECONDS)).delete(),
    auditLog: await db('sso.audit_log')
      .where('at', '<', before(options.auditRetentionDays * 86_400))
      .delete(),
  };
}

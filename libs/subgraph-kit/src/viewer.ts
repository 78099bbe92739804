/**
 * The caller as the subgraphs' readers see it. The spec makes `user.uid` a UUID (the primary key
 * of every account); a verified token whose uid is not one (another issuer's format, a test token)
 * names no account, so it is served as the nil UUID, which no account has: the caller sees nothing
 * and every uuid column compares cleanly, instead of PostgreSQL refusing the value (which surfaced
 * as INTERNAL_SERVER_ERROR in four subgraphs).
 */
import { asViewer, type UserContext } from '@fleetgraph/auth';

/** The uid of a caller whose token names no account. */
export const NO_ACCOUNT_UID = '00000000-0000-0000-0000-000000000000';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function viewerOf(user: UserContext): UserContext {
  return UUID.test(user.uid) ? user : { ...user, uid: asViewer(NO_ACCOUNT_UID) };
}

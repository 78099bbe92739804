import type { Viewer } from './viewer';
/** What every service knows about the caller once the access token is verified. */
export interface UserContext {
  /** The user id (SSO `uid`); the Account id everywhere, and the caller visibility rules take. */
  uid: Viewer;
  email: string;
  fullName: string;
  scopes: string[];
  /** Token id, for revocation. */
  jti: string;
  /** Expiry, epoch seconds. */
  exp: number;
  clientId?: string;
}

export function hasScope(user: UserContext, scope: string): boolean {
  return user.scopes.includes(scope);
}

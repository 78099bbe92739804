/** What every service knows about the caller once the access token is verified. */
export interface UserContext {
  /** The user id (SSO `uid`); the Account id everywhere. */
  uid: string;
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

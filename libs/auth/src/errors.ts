export type AuthFailure = 'missing_token' | 'invalid_token' | 'expired_token' | 'revoked_token';

export class AuthError extends Error {
  constructor(
    readonly reason: AuthFailure,
    message: string,
  ) {
    super(message);
    this.name = 'AuthError';
  }
}

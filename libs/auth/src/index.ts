export { AuthError, type AuthFailure } from './errors';
export { bearerToken } from './bearer';
export { createTokenVerifier, type TokenVerifier, type VerifierOptions } from './verifier';
export { hasScope, type UserContext } from './user-context';
export { createRevocationList, type RevocationList, type RevocationListOptions } from './revocation';

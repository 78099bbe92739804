export { AuthError, type AuthFailure } from './errors';
export { bearerToken } from './bearer';
export { createTokenVerifier, type TokenVerifier, type VerifierOptions } from './verifier';
export { hasScope, type UserContext } from './user-context';
export {
  createRevocationList,
  DEFAULT_REVOCATION_CACHE_MS,
  DEFAULT_REVOCATION_PREFIX,
  type RevocationList,
  type RevocationListOptions,
} from './revocation';
export { bearerChallenge, BEARER_REALM, type BearerChallenge } from './challenge';
export {
  createDatabaseRevocationList,
  MAX_ACCESS_TOKEN_TTL_S,
  REVOCATIONS_CHANNEL,
  REVOCATIONS_VIEW,
  type DatabaseRevocationList,
} from './revocation-database';
export { GATEWAY_SECRET_HEADER, isGatewaySecret, TENANT_HEADER } from './gateway-secret';
export {
  checkScopes,
  graphAccess,
  INSUFFICIENT_SCOPE,
  PROFILE_FIELDS,
  SCOPE_NAMES,
  SCOPES,
  type GraphAccess,
  type ScopeCaller,
  type ScopeDefinition,
} from './scopes';
export { asViewer, type Viewer } from './viewer';

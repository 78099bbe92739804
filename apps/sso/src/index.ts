export { buildApp, type BuildOptions } from './app';
export { loadSsoConfig, type SsoConfig } from './config';
export { OAuthError } from './errors';
export { hashPassword, verifyPassword } from './passwords';
export { ensureUsers, type NewUser } from './data/users';
export { migrations, SSO_SCHEMA, SSO_CONTRACT_SCHEMA, REVOCATION_CHANNEL } from '../migrations/index';
export {
  createApplication,
  ensureApplication,
  SCOPES_SUPPORTED,
  GRANT_TYPES_SUPPORTED,
  type Application,
  type NewApplication,
} from './data/applications';
export { runAdminCommand, UsageError, type AdminOptions } from './admin/commands';
export { ensureSigningKey, rotateSigningKey, sealStoredKeys, ROTATION_DELAY_SECONDS } from './keys';
export { serverMetadata } from './routes/discovery';
export { createKeyCipher, keyCipherOf } from './key-encryption';
// The parts of a refresh the benchmark's SSO floor (tools/bench/src/sso-floor.ts) does with no
// framework around them: the durable rotation statement, the token hashing, the client check.
export { createRotationBatcher } from './data/refresh-rotation';
export { hashRefreshToken, insertRefreshToken, newRefreshToken } from './data/refresh-tokens';
export { clientSecretMatches } from './data/applications';

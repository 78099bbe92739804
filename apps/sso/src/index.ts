export { buildApp, type BuildOptions } from './app';
export { loadSsoConfig, type SsoConfig } from './config';
export { OAuthError } from './errors';
export { hashPassword, verifyPassword } from './passwords';
export { migrations, SSO_SCHEMA } from '../migrations/index';

export { parseEnv, envField, ConfigError, z } from './env';
export { loggerOptions, REDACT_PATHS } from './logger';
export { repoRoot, dataDir } from './paths';
export { requestIdFrom } from './request-id';
export { createServer, type ServerOptions, type ReadinessCheck } from './server';
export { onShutdown } from './shutdown';
export {
  initTracing,
  initTracingFromEnv,
  tracingEnabled,
  flushTracing,
  type TracingOptions,
} from './tracing';
export { optionalRedis, type OptionalRedis } from './redis';
export { loadDevSecrets, readDevSecrets, devSecretsFile, type DevSecrets } from './dev-secrets';
export { ensureSecretsDir, readSecretFile, secretsDir, writeSecretFile } from './secret-files';
export { SERVICE_NODE_FLAGS } from './node-flags';
export {
  capConnectionsPerAddress,
  DEFAULT_HTTP_LIMITS,
  HTTP_LIMITS_ENV,
  httpLimitsOf,
  type HttpLimits,
} from './http-limits';
export {
  DEFAULT_OVERLOAD_LIMITS,
  guardOverload,
  OVERLOAD_ENV,
  overloadLimitsOf,
  type OverloadLimits,
} from './overload';
export {
  memoryLimiter,
  takeFromBucket,
  type Bucket,
  type LimiterOptions,
  type RateDecision,
  type RateLimiter,
} from './token-bucket';

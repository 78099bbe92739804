/**
 * The SSO's environment, read once at start and validated (every problem listed at once).
 * Everything else reads the typed SsoConfig, never process.env.
 */
import { DEFAULT_REVOCATION_PREFIX, MAX_ACCESS_TOKEN_TTL_S } from '@fleetgraph/auth';
import { SERVICE_DATABASE_TIMEOUTS, type DatabaseTimeouts } from '@fleetgraph/db';
import {
  envField,
  HTTP_LIMITS_ENV,
  httpLimitsOf,
  parseEnv,
  z,
  type HttpLimits,
} from '@fleetgraph/service-kit';
import { DEFAULT_THROTTLE_POLICY, type ThrottlePolicy } from './data/throttle';

export interface SsoConfig {
  name: string;
  port: number;
  host: string;
  logLevel: string;
  /** Header, body and idle deadlines and the per-address connection cap (HTTP_*; service-kit http-limits.ts). */
  http: HttpLimits;
  /** `iss` of every token; also what the verifiers expect. */
  issuer: string;
  /** `aud` of every access token. */
  audience: string;
  /**
   * Access-token lifetime in seconds (spec 5.1/8: 7200), at most MAX_ACCESS_TOKEN_TTL_S (a day):
   * the verifiers keep no revocation longer than that.
   */
  accessTokenTtl: number;
  /** Refresh-token lifetime in seconds, renewed on every rotation. */
  refreshTokenTtl: number;
  /** Optional here: main.ts falls back to the embedded database. */
  databaseUrl: string | undefined;
  /** Shared revocation list for the gateway; absent: in-memory (one process). */
  redisUrl: string | undefined;
  /** Prefix of the revocation list's Redis keys (REVOCATION_PREFIX, default `fleetgraph:revoked:`). */
  revocationPrefix: string;
  /**
   * Proxy hops whose X-Forwarded-For is trusted for the client address (0: none). Behind a load
   * balancer this must be set, or every client shares the balancer's address and the per-address
   * sign-in throttling would lock them out together.
   */
  trustProxyHops: number;
  /** Audit rows are kept this many days (AUDIT_RETENTION_DAYS, default 365). */
  auditRetentionDays: number;
  /** Expired tokens, codes, sessions and old audit rows are removed this often (0: never). */
  purgeIntervalSeconds: number;
  /**
   * No request waits on the database longer than these bounds (DATABASE_STATEMENT_TIMEOUT_MS 5000,
   * DATABASE_CONNECT_TIMEOUT_MS 3000, DATABASE_ACQUIRE_TIMEOUT_MS 5000); past them the answer is
   * 503 temporarily_unavailable with Retry-After.
   */
  databaseTimeouts?: DatabaseTimeouts;
  /**
   * The brute-force policy (data/throttle.ts): LOGIN_WINDOW_SECONDS (900),
   * LOGIN_PAIR_MAX_FAILURES (10 per account and address), LOGIN_ADDRESS_MAX_FAILURES (100 per
   * address), LOGIN_DELAY_AFTER_FAILURES (3), LOGIN_DELAY_BASE_MS (250), LOGIN_DELAY_MAX_MS (4000).
   */
  throttle: ThrottlePolicy;
  /**
   * Seals the private signing keys at rest (key-encryption.ts): SSO_KEY_ENCRYPTION_KEY (32+
   * characters) and, during a rotation, SSO_KEY_ENCRYPTION_KEY_PREVIOUS. Required when
   * NODE_ENV=production unless SSO_ALLOW_PLAINTEXT_KEYS=true; `npm start` generates one.
   */
  keyEncryptionKey?: string;
  previousKeyEncryptionKeys?: string[];
}

const schema = z.object({
  SSO_PORT: envField.port(4100),
  // SSO_HOST wins; HOST is the platform-wide fallback (docker-compose sets HOST=0.0.0.0).
  SSO_HOST: z.string().min(1).optional(),
  HOST: z.string().min(1).optional(),
  SSO_ISSUER: z.string().url().optional(),
  TOKEN_AUDIENCE: z.string().min(1).default('fleetgraph'),
  ACCESS_TOKEN_TTL: z.coerce.number().int().min(60).max(MAX_ACCESS_TOKEN_TTL_S).default(7200),
  REFRESH_TOKEN_TTL: envField.int(30 * 24 * 3600, 60),
  LOG_LEVEL: envField.logLevel(),
  ...HTTP_LIMITS_ENV,
  DATABASE_URL: z.string().url().optional(),
  REDIS_URL: z.string().url().optional(),
  REVOCATION_PREFIX: z.string().min(1).default(DEFAULT_REVOCATION_PREFIX),
  SSO_TRUST_PROXY_HOPS: envField.int(0, 0),
  AUDIT_RETENTION_DAYS: envField.int(365, 1),
  PURGE_INTERVAL_SECONDS: envField.int(3600, 0),
  DATABASE_STATEMENT_TIMEOUT_MS: envField.int(SERVICE_DATABASE_TIMEOUTS.statementMs, 100),
  DATABASE_CONNECT_TIMEOUT_MS: envField.int(SERVICE_DATABASE_TIMEOUTS.connectMs, 100),
  DATABASE_ACQUIRE_TIMEOUT_MS: envField.int(SERVICE_DATABASE_TIMEOUTS.acquireMs, 100),
  SSO_KEY_ENCRYPTION_KEY: z.string().min(32, 'must have at least 32 characters').optional(),
  SSO_KEY_ENCRYPTION_KEY_PREVIOUS: z.string().min(32, 'must have at least 32 characters').optional(),
  SSO_ALLOW_PLAINTEXT_KEYS: z.enum(['true', 'false']).default('false'),
  NODE_ENV: z.string().optional(),
  LOGIN_WINDOW_SECONDS: envField.int(DEFAULT_THROTTLE_POLICY.windowSeconds, 1),
  LOGIN_PAIR_MAX_FAILURES: envField.int(DEFAULT_THROTTLE_POLICY.pairMaxFailures, 1),
  LOGIN_ADDRESS_MAX_FAILURES: envField.int(DEFAULT_THROTTLE_POLICY.addressMaxFailures, 1),
  LOGIN_DELAY_AFTER_FAILURES: envField.int(DEFAULT_THROTTLE_POLICY.delayAfterFailures, 0),
  LOGIN_DELAY_BASE_MS: envField.int(DEFAULT_THROTTLE_POLICY.delayBaseMs, 0),
  LOGIN_DELAY_MAX_MS: envField.int(DEFAULT_THROTTLE_POLICY.delayMaxMs, 0),
});

export function loadSsoConfig(env: Record<string, string | undefined> = process.env): SsoConfig {
  const parsed = parseEnv(
    'sso',
    schema.refine(
      (v) => v.NODE_ENV !== 'production' || v.SSO_KEY_ENCRYPTION_KEY || v.SSO_ALLOW_PLAINTEXT_KEYS === 'true',
      {
        path: ['SSO_KEY_ENCRYPTION_KEY'],
        message:
          'is required in production (signing keys are sealed with it), or set SSO_ALLOW_PLAINTEXT_KEYS=true',
      },
    ),
    env,
  );
  return {
    name: 'sso',
    port: parsed.SSO_PORT,
    host: parsed.SSO_HOST ?? parsed.HOST ?? '127.0.0.1',
    logLevel: parsed.LOG_LEVEL,
    http: httpLimitsOf(parsed),
    issuer: parsed.SSO_ISSUER ?? `http://localhost:${parsed.SSO_PORT}`,
    audience: parsed.TOKEN_AUDIENCE,
    accessTokenTtl: parsed.ACCESS_TOKEN_TTL,
    refreshTokenTtl: parsed.REFRESH_TOKEN_TTL,
    databaseUrl: parsed.DATABASE_URL,
    redisUrl: parsed.REDIS_URL,
    revocationPrefix: parsed.REVOCATION_PREFIX,
    trustProxyHops: parsed.SSO_TRUST_PROXY_HOPS,
    auditRetentionDays: parsed.AUDIT_RETENTION_DAYS,
    purgeIntervalSeconds: parsed.PURGE_INTERVAL_SECONDS,
    ...(parsed.SSO_KEY_ENCRYPTION_KEY ? { keyEncryptionKey: parsed.SSO_KEY_ENCRYPTION_KEY } : {}),
    ...(parsed.SSO_KEY_ENCRYPTION_KEY_PREVIOUS
      ? { previousKeyEncryptionKeys: [parsed.SSO_KEY_ENCRYPTION_KEY_PREVIOUS] }
      : {}),
    throttle: {
      windowSeconds: parsed.LOGIN_WINDOW_SECONDS,
      pairMaxFailures: parsed.LOGIN_PAIR_MAX_FAILURES,
      addressMaxFailures: parsed.LOGIN_ADDRESS_MAX_FAILURES,
      delayAfterFailures: parsed.LOGIN_DELAY_AFTER_FAILURES,
      delayBaseMs: parsed.LOGIN_DELAY_BASE_MS,
      delayMaxMs: parsed.LOGIN_DELAY_MAX_MS,
    },
    databaseTimeouts: {
      statementMs: parsed.DATABASE_STATEMENT_TIMEOUT_MS,
      connectMs: parsed.DATABASE_CONNECT_TIMEOUT_MS,
      acquireMs: parsed.DATABASE_ACQUIRE_TIMEOUT_MS,
    },
  };
}

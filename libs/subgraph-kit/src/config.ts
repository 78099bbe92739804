/**
 * The environment every subgraph reads: where it listens, how it verifies tokens, its database
 * and its paging secret. `PREFIX_PORT` lets the one-process start give each subgraph its own port.
 */
import { DEFAULT_REVOCATION_CACHE_MS, DEFAULT_REVOCATION_PREFIX } from '@fleetgraph/auth';
import { randomBytes } from 'node:crypto';
import { SERVICE_DATABASE_TIMEOUTS, type DatabaseTimeouts } from '@fleetgraph/db';
import {
  envField,
  HTTP_LIMITS_ENV,
  httpLimitsOf,
  OVERLOAD_ENV,
  overloadLimitsOf,
  parseEnv,
  z,
  type HttpLimits,
  type OverloadLimits,
} from '@fleetgraph/service-kit';
import { QUERY_LIMITS_ENV, queryLimitsOf, type QueryLimits } from '@fleetgraph/query-limits';

export interface SubgraphConfig {
  name: string;
  port: number;
  host: string;
  logLevel: string;
  issuer: string;
  jwksUrl: string;
  audience: string;
  pagingSecret: string;
  databaseUrl: string | undefined;
  /**
   * Where read-only statements go (DATABASE_READ_URL: a streaming hot standby of DATABASE_URL's
   * server); unset, reads go to DATABASE_URL. Migrations and the revocation list always use the
   * primary. See docs/operations.md, "Reads from a standby".
   */
  databaseReadUrl?: string;
  /** Shared revocation list (REDIS_URL); without it only the gateway checks revocations. */
  redisUrl: string | undefined;
  /** How long a "not revoked" answer is reused per token (REVOCATION_CACHE_MS, default 2000). */
  revocationCacheMs: number;
  /** Prefix of the revocation list's Redis keys (REVOCATION_PREFIX, default `fleetgraph:revoked:`; the SSO's). */
  revocationPrefix: string;
  /**
   * No request waits on the database longer than these bounds (DATABASE_STATEMENT_TIMEOUT_MS
   * 5000, DATABASE_CONNECT_TIMEOUT_MS 3000, DATABASE_ACQUIRE_TIMEOUT_MS 5000); past them a field
   * is SERVICE_UNAVAILABLE (retryable) and the answer HTTP 503 with Retry-After.
   */
  databaseTimeouts?: DatabaseTimeouts;
  /**
   * Reads run as named prepared statements, parsed once per connection (DATABASE_PREPARED_STATEMENTS,
   * default true; libs/db prepared-statements.ts). false: knex's unnamed statements, as before.
   */
  preparedStatements?: boolean;
  /**
   * Root lists of a member of a top-level group seeing at least this many groups walk the
   * organization's rows in page order, testing each (VISIBILITY_WALK_FROM_GROUPS; unset,
   * libs/visibility's WALK_FROM_GROUPS, 64); others build the viewer's visible set. Only cost changes.
   */
  walkFromGroups?: number;
  /** Header, body and idle deadlines and the per-address connection cap (HTTP_*; service-kit http-limits.ts). */
  http?: HttpLimits;
  /** When the subgraph sheds load (SHED_MAX_IN_FLIGHT, SHED_EVENT_LOOP_DELAY_MS; service-kit overload.ts). */
  overload?: OverloadLimits;
  /** The gateway's query limits, applied here too (MAX_DEPTH, MAX_ALIASES, MAX_COST, MAX_INTROSPECTION_ROOTS). */
  limits?: QueryLimits;
  /**
   * SUBGRAPH_SHARED_SECRET (16+ characters): when set, only the gateway (which sends it) is
   * served; `npm start` always sets one. Unset: direct calls with a valid token are served (tests,
   * a subgraph run alone); with NODE_ENV=production the subgraph refuses to start without it unless
   * ALLOW_DIRECT_SUBGRAPH_ACCESS=true.
   */
  gatewaySecret?: string;
}

export function loadSubgraphConfig(
  name: string,
  envPrefix: string,
  defaultPort: number,
  env: Record<string, string | undefined> = process.env,
): SubgraphConfig {
  const schema = z.object({
    [`${envPrefix}_PORT`]: envField.port(defaultPort),
    HOST: z.string().default('127.0.0.1'),
    LOG_LEVEL: envField.logLevel(),
    SSO_ISSUER: z.string().url().default('http://localhost:4100'),
    SSO_JWKS_URL: z.string().url().optional(),
    TOKEN_AUDIENCE: z.string().min(1).default('fleetgraph'),
    PAGING_SECRET: z.string().min(16, 'must have at least 16 characters').optional(),
    DATABASE_URL: z.string().url().optional(),
    DATABASE_READ_URL: z
      .string()
      .url()
      .optional()
      .describe(
        'PostgreSQL URL of a hot standby of DATABASE_URL: read-only statements go there, everything else to DATABASE_URL.',
      ),
    REDIS_URL: z.string().url().optional(),
    REVOCATION_CACHE_MS: envField.int(DEFAULT_REVOCATION_CACHE_MS, 0),
    REVOCATION_PREFIX: z.string().min(1).default(DEFAULT_REVOCATION_PREFIX),
    DATABASE_STATEMENT_TIMEOUT_MS: envField.int(SERVICE_DATABASE_TIMEOUTS.statementMs, 100),
    DATABASE_CONNECT_TIMEOUT_MS: envField.int(SERVICE_DATABASE_TIMEOUTS.connectMs, 100),
    DATABASE_ACQUIRE_TIMEOUT_MS: envField.int(SERVICE_DATABASE_TIMEOUTS.acquireMs, 100),
    DATABASE_PREPARED_STATEMENTS: envField
      .bool(true)
      .describe('false: reads run as unnamed statements, parsed and planned on every call.'),
    VISIBILITY_WALK_FROM_GROUPS: z.coerce
      .number()
      .int()
      .min(1)
      .optional()
      .describe(
        'Root lists of a top-level member seeing at least this many groups (default: libs/visibility WALK_FROM_GROUPS, 64) walk the organization in page order, testing each row; others build the visible set.',
      ),
    ...QUERY_LIMITS_ENV,
    ...HTTP_LIMITS_ENV,
    ...OVERLOAD_ENV,
    SUBGRAPH_SHARED_SECRET: z
      .string()
      .min(16, 'must have at least 16 characters')
      .optional()
      .describe(
        'Secret the gateway sends in x-fleetgraph-gateway; when set, only requests carrying it are served (403 FORBIDDEN otherwise). Required when NODE_ENV=production unless ALLOW_DIRECT_SUBGRAPH_ACCESS=true.',
      ),
    ALLOW_DIRECT_SUBGRAPH_ACCESS: envField
      .bool(false)
      .describe('true: a production subgraph may run without SUBGRAPH_SHARED_SECRET (direct calls served).'),
    NODE_ENV: z.string().optional(),
  });
  const guarded = schema.superRefine((values, context) => {
    if (values.DATABASE_READ_URL) {
      const readUrl = values.DATABASE_READ_URL as string;
      if (URL.canParse(readUrl) && !/^postgres(ql)?:$/.test(new URL(readUrl).protocol))
        context.addIssue({
          code: z.ZodIssueCode.custom,
          path: ['DATABASE_READ_URL'],
          message: 'must be a postgres:// or postgresql:// URL',
        });
      // Without DATABASE_URL the service runs on the embedded server, which has no standby.
      if (!values.DATABASE_URL)
        context.addIssue({
          code: z.ZodIssueCode.custom,
          path: ['DATABASE_READ_URL'],
          message: 'needs DATABASE_URL: reads go to a standby of the primary DATABASE_URL names',
        });
    }
    if (
      values.NODE_ENV === 'production' &&
      !values.SUBGRAPH_SHARED_SECRET &&
      !values.ALLOW_DIRECT_SUBGRAPH_ACCESS
    )
      context.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['SUBGRAPH_SHARED_SECRET'],
        message:
          'required in production, so only the gateway is served (or set ALLOW_DIRECT_SUBGRAPH_ACCESS=true to serve direct calls)',
      });
  });
  const parsed = parseEnv(name, guarded, env) as Record<string, unknown>;
  const issuer = parsed.SSO_ISSUER as string;
  return {
    name,
    port: parsed[`${envPrefix}_PORT`] as number,
    host: parsed.HOST as string,
    logLevel: parsed.LOG_LEVEL as string,
    issuer,
    jwksUrl:
      (parsed.SSO_JWKS_URL as string | undefined) ?? `${issuer.replace(/\/$/, '')}/.well-known/jwks.json`,
    audience: parsed.TOKEN_AUDIENCE as string,
    // Without a configured secret, cursors are valid until this process restarts.
    pagingSecret: (parsed.PAGING_SECRET as string | undefined) ?? randomBytes(32).toString('base64url'),
    databaseUrl: parsed.DATABASE_URL as string | undefined,
    ...(parsed.DATABASE_READ_URL ? { databaseReadUrl: parsed.DATABASE_READ_URL as string } : {}),
    redisUrl: parsed.REDIS_URL as string | undefined,
    revocationCacheMs: parsed.REVOCATION_CACHE_MS as number,
    revocationPrefix: parsed.REVOCATION_PREFIX as string,
    limits: queryLimitsOf(parsed),
    http: httpLimitsOf(parsed),
    overload: overloadLimitsOf(parsed),
    ...(parsed.SUBGRAPH_SHARED_SECRET ? { gatewaySecret: parsed.SUBGRAPH_SHARED_SECRET as string } : {}),
    preparedStatements: parsed.DATABASE_PREPARED_STATEMENTS as boolean,
    walkFromGroups: parsed.VISIBILITY_WALK_FROM_GROUPS as number | undefined,
    databaseTimeouts: {
      statementMs: parsed.DATABASE_STATEMENT_TIMEOUT_MS as number,
      connectMs: parsed.DATABASE_CONNECT_TIMEOUT_MS as number,
      acquireMs: parsed.DATABASE_ACQUIRE_TIMEOUT_MS as number,
    },
  };
}

import { join } from 'node:path';
import { envField, parseEnv, repoRoot, z } from '@fleetgraph/service-kit';

export interface GatewayConfig {
  port: number;
  host: string;
  logLevel: string;
  issuer: string;
  jwksUrl: string;
  audience: string;
  supergraphPath: string;
  introspection: boolean;
  /** subgraph name -> URL, overriding the supergraph's (SUBGRAPH_FLEET_CORE_URL=...) */
  subgraphUrls: Record<string, string>;
  subgraphTimeoutMs: number;
  /** Redis holding the SSO's revocation list; without it the gateway sees no revocations of other processes. */
  redisUrl: string | undefined;
  /** How long a "not revoked" answer is reused per token (REVOCATION_CACHE_MS, default 2000). */
  revocationCacheMs: number;
  /** Query limits (issue 5); each refusal is QUERY_TOO_COMPLEX with the rule, limit and measured value. */
  maxDepth: number;
  maxAliases: number;
  maxTokens: number;
  /** Estimated cost: each field 1, a paged field multiplies its selection by its pageSize. */
  maxCost: number;
  /** Page size the cost estimate assumes when a paged field is called without pageSize. */
  defaultPageSizeForCost: number;
  /** Largest request body in bytes; larger bodies get HTTP 413 PAYLOAD_TOO_LARGE. */
  maxBodyBytes: number;
}

export function loadGatewayConfig(env: Record<string, string | undefined> = process.env): GatewayConfig {
  const schema = z.object({
    GATEWAY_PORT: envField.port(4000),
    HOST: z.string().default('127.0.0.1'),
    LOG_LEVEL: envField.logLevel(),
    SSO_ISSUER: z.string().url().default('http://localhost:4100'),
    SSO_JWKS_URL: z.string().url().optional(),
    TOKEN_AUDIENCE: z.string().min(1).default('fleetgraph'),
    SUPERGRAPH_PATH: z.string().default(join(repoRoot, 'supergraph.graphql')),
    INTROSPECTION: envField.bool(true),
    SUBGRAPH_TIMEOUT_MS: envField.int(10_000, 1),
    REDIS_URL: z.string().url().optional(),
    REVOCATION_CACHE_MS: envField.int(2000, 0),
    MAX_DEPTH: envField.int(12, 1),
    MAX_ALIASES: envField.int(30, 0),
    MAX_TOKENS: envField.int(5000, 1),
    // 250k: two nested paged fields at their documented maxima (groups 200 x devices 500, cost
    // 200,801) pass, as the cross-service tests ask; three nested pages of the default 50 do not.
    MAX_COST: envField.int(250_000, 1),
    DEFAULT_PAGE_SIZE_FOR_COST: envField.int(50, 0),
    MAX_BODY_BYTES: envField.int(1_000_000, 1),
  });
  const parsed = parseEnv('gateway', schema, env);
  const subgraphUrls: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    const match = /^SUBGRAPH_([A-Z0-9_]+)_URL$/.exec(key);
    if (match?.[1] && value) subgraphUrls[match[1].toLowerCase().replace(/_/g, '-')] = value;
  }
  return {
    port: parsed.GATEWAY_PORT,
    host: parsed.HOST,
    logLevel: parsed.LOG_LEVEL,
    issuer: parsed.SSO_ISSUER,
    jwksUrl: parsed.SSO_JWKS_URL ?? `${parsed.SSO_ISSUER.replace(/\/$/, '')}/.well-known/jwks.json`,
    audience: parsed.TOKEN_AUDIENCE,
    supergraphPath: parsed.SUPERGRAPH_PATH,
    introspection: parsed.INTROSPECTION,
    subgraphUrls,
    subgraphTimeoutMs: parsed.SUBGRAPH_TIMEOUT_MS,
    redisUrl: parsed.REDIS_URL,
    revocationCacheMs: parsed.REVOCATION_CACHE_MS,
    maxDepth: parsed.MAX_DEPTH,
    maxAliases: parsed.MAX_ALIASES,
    maxTokens: parsed.MAX_TOKENS,
    maxCost: parsed.MAX_COST,
    defaultPageSizeForCost: parsed.DEFAULT_PAGE_SIZE_FOR_COST,
    maxBodyBytes: parsed.MAX_BODY_BYTES,
  };
}

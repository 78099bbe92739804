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
  };
}

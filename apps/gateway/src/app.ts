/**
 * The gateway: @apollo/server + @apollo/gateway on Fastify. Verifies access tokens, plans
 * queries over the subgraphs of the composed supergraph, and forwards the caller's context.
 */
import { readFileSync } from 'node:fs';
import { ApolloGateway } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { fastifyApolloHandler } from '@as-integrations/fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { JWTVerifyGetKey } from 'jose';
import { createRevocationList, createTokenVerifier, type RevocationList } from '@fleetgraph/auth';
import { createServer } from '@fleetgraph/service-kit';
import type { GatewayConfig } from './config';
import { contextFactory, type GatewayContext } from './context';
import { ForwardingDataSource } from './data-source';
import { formatError } from './errors';
import { limitsParseOptions, queryLimitsPlugin, type QueryLimits } from './limits/plugin';

export interface GatewayBuildOptions {
  jwks?: JWTVerifyGetKey;
  /** The SSO's revocation list (the one-process start shares its in-memory list); default from REDIS_URL. */
  revocations?: RevocationList;
}

export async function buildApp(
  config: GatewayConfig,
  options: GatewayBuildOptions = {},
): Promise<FastifyInstance> {
  const app = createServer({ name: 'gateway', logLevel: config.logLevel, bodyLimit: config.maxBodyBytes });
  const limits: QueryLimits = {
    maxDepth: config.maxDepth,
    maxAliases: config.maxAliases,
    maxTokens: config.maxTokens,
    maxCost: config.maxCost,
    defaultPageSizeForCost: config.defaultPageSizeForCost,
  };
  const supergraphSdl = readFileSync(config.supergraphPath, 'utf8');
  const gateway = new ApolloGateway({
    supergraphSdl,
    buildService: ({ name, url }) => new ForwardingDataSource({ url: config.subgraphUrls[name] ?? url }),
  });
  const apollo = new ApolloServer<GatewayContext>({
    gateway,
    introspection: config.introspection,
    includeStacktraceInErrorResponses: false,
    formatError,
    parseOptions: limitsParseOptions(limits),
    // The default landing page loads from a CDN; the explorer will be served locally instead.
    // No drain plugin: it calls fastify.close() from apollo.stop(), which our onClose hook calls,
    // so closing would wait on itself. Fastify's own close already drains connections.
    plugins: [ApolloServerPluginLandingPageDisabled(), queryLimitsPlugin<GatewayContext>(limits)],
    logger: app.log,
  });
  await apollo.start();
  app.addHook('onClose', async () => {
    await apollo.stop();
  });

  // Verification stays local (cached keys and tokens); only the revocation check may ask Redis,
  // at most once per token every revocationCacheMs.
  const revocations =
    options.revocations ??
    createRevocationList({
      ...(config.redisUrl ? { redisUrl: config.redisUrl } : {}),
      cacheMs: config.revocationCacheMs,
      onError: (error, operation) => app.log.warn({ err: error, operation }, 'revocation list unavailable'),
    });
  if (!options.revocations) app.addHook('onClose', async () => revocations.close());
  const verifier = createTokenVerifier({
    issuer: config.issuer,
    audience: config.audience,
    jwks: options.jwks ?? config.jwksUrl,
    isRevoked: (jti) => revocations.isRevoked(jti),
  });
  app.route({
    url: '/graphql',
    method: ['GET', 'POST', 'OPTIONS'],
    handler: fastifyApolloHandler(apollo, { context: contextFactory(verifier) }),
    errorHandler: payloadTooLargeHandler(config.maxBodyBytes),
  });
  app.addReadinessCheck('supergraph', async () => {
    if (!apollo) throw new Error('not started');
  });
  return app;
}

/**
 * A body over the limit is refused by Fastify before the GraphQL layer sees it; answer it as a
 * GraphQL error (HTTP 413, PAYLOAD_TOO_LARGE). Other errors go on to the server's error handler.
 */
function payloadTooLargeHandler(limit: number) {
  return (
    error: Error & { statusCode?: number; code?: string },
    request: FastifyRequest,
    reply: FastifyReply,
  ) => {
    if (error.statusCode !== 413) throw error;
    const length = Number(request.headers['content-length']);
    return reply
      .code(413)
      .type('application/json; charset=utf-8')
      .send({
        errors: [
          {
            message: `Request body is larger than the maximum of ${limit} bytes: send a smaller request.`,
            extensions: {
              code: 'PAYLOAD_TOO_LARGE',
              limit,
              ...(Number.isFinite(length) && length > 0 ? { measured: length } : {}),
            },
          },
        ],
      });
  };
}

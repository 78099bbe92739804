/**
 * The gateway: @apollo/server + @apollo/gateway on Fastify. Verifies access tokens, plans
 * queries over the subgraphs of the composed supergraph, and forwards the caller's context.
 */
import { readFileSync } from 'node:fs';
import { ApolloGateway } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { fastifyApolloDrainPlugin, fastifyApolloHandler } from '@as-integrations/fastify';
import type { FastifyInstance } from 'fastify';
import type { JWTVerifyGetKey } from 'jose';
import { createTokenVerifier } from '@fleetgraph/auth';
import { createServer } from '@fleetgraph/service-kit';
import type { GatewayConfig } from './config';
import { contextFactory, type GatewayContext } from './context';
import { ForwardingDataSource } from './data-source';
import { formatError } from './errors';

export interface GatewayBuildOptions {
  jwks?: JWTVerifyGetKey;
}

export async function buildApp(config: GatewayConfig, options: GatewayBuildOptions = {}): Promise<FastifyInstance> {
  const app = createServer({ name: 'gateway', logLevel: config.logLevel });
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
    // The default landing page loads from a CDN; the explorer will be served locally instead.
    plugins: [fastifyApolloDrainPlugin(app), ApolloServerPluginLandingPageDisabled()],
    logger: app.log,
  });
  await apollo.start();
  app.addHook('onClose', async () => {
    await apollo.stop();
  });

  const verifier = createTokenVerifier({ issuer: config.issuer, audience: config.audience, jwks: options.jwks ?? config.jwksUrl });
  app.route({
    url: '/graphql',
    method: ['GET', 'POST', 'OPTIONS'],
    handler: fastifyApolloHandler(apollo, { context: contextFactory(verifier) }),
  });
  app.addReadinessCheck('supergraph', async () => {
    if (!apollo) throw new Error('not started');
  });
  return app;
}

/**
 * GET /.well-known/jwks.json: every non-retired public signing key (kid, kty, n, e, alg, use),
 * cacheable for a few minutes so verifiers do not fetch it per token.
 */
import type { FastifyInstance } from 'fastify';
import type { KeyStore } from '../keys';

export const JWKS_MAX_AGE_SECONDS = 300;

export async function jwksRoutes(app: FastifyInstance, keys: KeyStore): Promise<void> {
  app.get('/.well-known/jwks.json', async (_request, reply) => {
    reply.header('cache-control', `public, max-age=${JWKS_MAX_AGE_SECONDS}`);
    return { keys: keys.publicKeys() };
  });
}

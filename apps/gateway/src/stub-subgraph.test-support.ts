/**
 * For gateway tests of request protections (rate limit, budgets, persisted queries,
 * introspection): every subgraph URL points at one HTTP server that counts calls and answers
 * `{ account { email } }` with the email in the access token the gateway forwarded, so a test sees
 * whose data came back and whether a refused request reached a subgraph at all. Asked for
 * `organizationId` (the gateway's tenant lookup), it answers the email's domain: users of one
 * domain are one organization.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { createTestIssuer, type TestIssuer } from '@fleetgraph/testing';
import { buildApp, type GatewayBuildOptions } from './app';
import { loadGatewayConfig } from './config';
import { routeEverySubgraph } from './testing/subgraphs';

export interface StubbedGateways {
  issuer: TestIssuer;
  /** Calls the stub subgraph received since the last reset, the gateway's tenant lookups aside. */
  calls(): number;
  /** The gateway's lookups of a caller's organization since the last reset. */
  tenantLookups(): number;
  resetCalls(): void;
  /** `options` adds to the build options (e.g. `now`, the clock tests move). */
  gateway(env?: Record<string, string>, options?: GatewayBuildOptions): Promise<FastifyInstance>;
  close(): Promise<void>;
}

export async function stubbedGateways(): Promise<StubbedGateways> {
  const issuer = await createTestIssuer();
  let calls = 0;
  let tenantLookups = 0;
  const stub: Server = createServer((request, response) => {
    const token = (request.headers.authorization ?? '').replace(/^Bearer /, '');
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString() || '{}');
    const email: string | null = claims.user?.email ?? null;
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const lookup = Buffer.concat(chunks).toString().includes('organizationId');
      if (lookup) tenantLookups += 1;
      else calls += 1;
      const account = lookup ? { organizationId: email?.split('@')[1] ?? null } : { email };
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ data: { account } }));
    });
  });
  await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(stub.address() as AddressInfo).port}/graphql`;
  const apps: FastifyInstance[] = [];
  return {
    issuer,
    calls: () => calls,
    tenantLookups: () => tenantLookups,
    resetCalls: () => {
      calls = 0;
      tenantLookups = 0;
    },
    async gateway(env = {}, options = {}) {
      const config = loadGatewayConfig({
        LOG_LEVEL: 'silent',
        SSO_ISSUER: issuer.issuer,
        TOKEN_AUDIENCE: issuer.audience,
        ...routeEverySubgraph(url),
        ...env,
      });
      const app = await buildApp(config, { jwks: issuer.jwks, ...options });
      apps.push(app);
      return app;
    },
    async close() {
      for (const app of apps) await app.close();
      await new Promise<void>((resolve) => stub.close(() => resolve()));
    },
  };
}

/**
 * Test helpers: small real subgraphs (service-kit server + subgraph-kit's registerSubgraph, so
 * token verification, request ids, logging and tracing are the platform's own), a supergraph
 * composed from them, and servers that are down or never answer.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { composeServices } from '@apollo/composition';
import type { FastifyInstance } from 'fastify';
import { parse } from 'graphql';
import { createTokenVerifier } from '@fleetgraph/auth';
import { createServer, type ServerOptions } from '@fleetgraph/service-kit';
import { registerSubgraph, type Resolvers } from '@fleetgraph/subgraph-kit';
import { scratchDir, type TestIssuer } from '@fleetgraph/testing';
import { repoRoot } from '@fleetgraph/service-kit';
import { subgraphUrlVariable } from '@fleetgraph/subgraph-kit';
import { buildApp, type GatewayBuildOptions } from '../app';
import { subgraphsOf } from '../resilience/supergraph';
import { loadGatewayConfig } from '../config';

export const FEDERATION =
  'extend schema @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key"])';

export interface TestSubgraph {
  name: string;
  url: string;
  app: FastifyInstance;
  close(): Promise<void>;
}

export async function startTestSubgraph(
  name: string,
  typeDefs: string,
  resolvers: Resolvers,
  options: {
    issuer: TestIssuer;
    logStream?: ServerOptions['logStream'];
    logLevel?: string;
    /** Listen on this port (default: any free one). */
    port?: number;
  },
): Promise<TestSubgraph> {
  const app = createServer({
    name,
    logLevel: options.logLevel ?? 'silent',
    ...(options.logStream ? { logStream: options.logStream } : {}),
  });
  await registerSubgraph(app, {
    typeDefs: parse(typeDefs),
    resolvers,
    createReader: () => ({}),
    verifier: createTokenVerifier({
      issuer: options.issuer.issuer,
      audience: options.issuer.audience,
      jwks: options.issuer.jwks,
    }),
  });
  await app.listen({ port: options.port ?? 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return { name, url: `http://127.0.0.1:${port}/graphql`, app, close: () => app.close() };
}

export function composeSupergraph(services: Array<{ name: string; url: string; typeDefs: string }>): string {
  const result = composeServices(services.map((s) => ({ ...s, typeDefs: parse(s.typeDefs) })));
  if (result.errors) throw new Error(result.errors.map((e) => e.message).join('\n'));
  return result.supergraphSdl;
}

/** A URL nothing listens on (a port opened, then closed). */
export async function deadUrl(): Promise<string> {
  const server = createHttpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/graphql`;
}

/** A server that accepts requests and never answers them (until closed). */
export async function silentServer(): Promise<{
  url: string;
  requests: () => number;
  /** Headers of the requests received. */
  headers: IncomingHttpHeaders[];
  close(): Promise<void>;
}> {
  let count = 0;
  const headers: IncomingHttpHeaders[] = [];
  const server: Server = createHttpServer((request) => {
    count += 1;
    headers.push(request.headers);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/graphql`,
    requests: () => count,
    headers,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A gateway (buildApp) over a supergraph written to a temporary file. */
export async function startTestGateway(
  supergraphSdl: string,
  issuer: TestIssuer,
  env: Record<string, string> = {},
  options: GatewayBuildOptions = {},
): Promise<{ app: FastifyInstance; supergraphPath: string; close(): Promise<void> }> {
  const dir = scratchDir('gateway-test');
  const supergraphPath = join(dir, 'supergraph.graphql');
  writeFileSync(supergraphPath, supergraphSdl);
  const config = loadGatewayConfig({
    LOG_LEVEL: 'silent',
    SSO_ISSUER: issuer.issuer,
    TOKEN_AUDIENCE: issuer.audience,
    SUPERGRAPH_PATH: supergraphPath,
    RATE_LIMIT_PER_MINUTE: '0',
    ...env,
  });
  const app = await buildApp(config, { jwks: issuer.jwks, ...options });
  return {
    app,
    supergraphPath,
    async close() {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Collects the JSON log lines written to it. */
export function logCollector() {
  const lines: Array<Record<string, unknown>> = [];
  return {
    lines,
    stream: {
      write(chunk: string) {
        for (const line of chunk.split('\n'))
          if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
      },
    },
  };
}

/**
 * `SUBGRAPH_<NAME>_URL` for every subgraph of the committed supergraph (the gateway's own local
 * subgraph aside), all pointing at `url`: a gateway whose every subgraph is one stub or one dead
 * address, whatever subgraphs exist.
 */
export function routeEverySubgraph(url: string): Record<string, string> {
  const supergraph = readFileSync(join(repoRoot, 'supergraph.graphql'), 'utf8');
  return Object.fromEntries(
    subgraphsOf(supergraph)
      .filter((s) => s.name !== 'gateway')
      .map((s) => [subgraphUrlVariable(s.name), url]),
  );
}

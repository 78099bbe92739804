/**
 * Wires the gateway's metrics into Fastify (request count and latency of /graphql, the /metrics
 * route) and into Apollo Server (operation names, GraphQL errors by code).
 */
import { timingSafeEqual } from 'node:crypto';
import type { ApolloServerPlugin } from '@apollo/server';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Kind, type DocumentNode } from 'graphql';
import type { GatewayMetrics } from './metrics';

/** What the GraphQL layer learnt about a request, read when its response is sent. */
export interface Observation {
  operation?: string | null;
}

const observations = new WeakMap<FastifyRequest, Observation>();

/** The observation slot of a request (created on first use). */
export function observationFor(request: FastifyRequest): Observation {
  let observation = observations.get(request);
  if (!observation) {
    observation = {};
    observations.set(request, observation);
  }
  return observation;
}

/** Apollo Server plugin: the resolved operation name, and every error sent, by code. */
export function metricsPlugin<C extends { observation?: Observation; internal?: boolean }>(
  metrics: GatewayMetrics,
): ApolloServerPlugin<C> {
  return {
    async contextCreationDidFail({ error }) {
      metrics.graphqlError((error as { extensions?: { code?: unknown } }).extensions?.code);
    },
    async requestDidStart({ contextValue }) {
      // What the gateway asks for itself (the tenant lookup) is not the clients' traffic.
      if (contextValue.internal) return {};
      return {
        // Known from the parsed document already, so a query that fails validation is named too.
        async validationDidStart({ document, request, contextValue }) {
          if (contextValue.observation)
            contextValue.observation.operation = operationNameOf(document, request.operationName);
        },
        async didResolveOperation({ operationName, contextValue }) {
          if (contextValue.observation) contextValue.observation.operation = operationName;
        },
        async willSendResponse({ response }) {
          if (response.body.kind !== 'single') return;
          for (const error of response.body.singleResult.errors ?? [])
            metrics.graphqlError(error.extensions?.code);
        },
      };
    },
  };
}

export interface MetricsRouteOptions {
  /** When set, GET /metrics needs `Authorization: Bearer <token>`. */
  token?: string;
  /** GraphQL route whose requests are counted (default /graphql). */
  graphqlPath?: string;
}

/** Counts /graphql requests (every answer, refusals included) and serves GET /metrics. */
export function registerMetrics(
  app: FastifyInstance,
  metrics: GatewayMetrics,
  options: MetricsRouteOptions = {},
) {
  const graphqlPath = options.graphqlPath ?? '/graphql';
  app.addHook('onResponse', (request, reply, done) => {
    if (request.routeOptions.url === graphqlPath && request.method !== 'OPTIONS') {
      const operation = observations.get(request)?.operation ?? bodyOperationName(request);
      metrics.request(operation, reply.statusCode, reply.elapsedTime / 1000);
    }
    done();
  });

  const expected = options.token ? Buffer.from(`Bearer ${options.token}`) : undefined;
  app.get('/metrics', { logLevel: 'warn' }, async (request, reply) => {
    if (expected) {
      const given = Buffer.from(request.headers.authorization ?? '');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        return reply
          .code(401)
          .header('www-authenticate', 'Bearer realm="metrics"')
          .send({ error: 'unauthorized', message: 'GET /metrics needs the metrics token (METRICS_TOKEN)' });
      }
    }
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}

/** The operation name a refused request asked for (it never reached operation resolution). */
function bodyOperationName(request: FastifyRequest): string | undefined {
  const source = (request.method === 'GET' ? request.query : request.body) as
    { operationName?: unknown } | undefined;
  const name = source && typeof source === 'object' ? source.operationName : undefined;
  return typeof name === 'string' ? name : undefined;
}

/** The name of the operation a document will run: the requested one, or its only operation's. */
function operationNameOf(document: DocumentNode, requested: string | undefined): string | undefined {
  if (requested) return requested;
  let name: string | undefined;
  let operations = 0;
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    operations += 1;
    name = definition.name?.value;
  }
  return operations === 1 ? name : undefined;
}

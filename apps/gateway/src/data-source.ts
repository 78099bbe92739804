import { RemoteGraphQLDataSource, type GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import type { GatewayContext } from './context';

/**
 * Forwards the caller's bearer token and the request id to every subgraph, which verifies the
 * token itself (a subgraph never trusts an unauthenticated caller).
 * Subgraph calls go through Node's fetch (undici: pooled keep-alive connections) rather than the
 * default make-fetch-happen, whose cache and stream layers cost ~1 ms per call
 * (tools/bench/src/geodecode.ts: gateway p50 6.06/5.83 ms -> 5.05/4.30 ms over two runs each).
 */
export class ForwardingDataSource extends RemoteGraphQLDataSource<GatewayContext> {
  constructor(config: ConstructorParameters<typeof RemoteGraphQLDataSource<GatewayContext>>[0]) {
    super({ fetcher: globalThis.fetch as never, ...config });
  }

  override willSendRequest({ request, context }: GraphQLDataSourceProcessOptions<GatewayContext>): void {
    if (!('token' in context) || !context.token) return;
    request.http?.headers.set('authorization', `Bearer ${context.token}`);
    request.http?.headers.set('x-request-id', context.requestId);
  }
}

import { RemoteGraphQLDataSource, type GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import type { GatewayContext } from './context';

/**
 * Forwards the caller's bearer token and the request id to every subgraph, which verifies the
 * token itself (a subgraph never trusts an unauthenticated caller).
 */
export class ForwardingDataSource extends RemoteGraphQLDataSource<GatewayContext> {
  override willSendRequest({ request, context }: GraphQLDataSourceProcessOptions<GatewayContext>): void {
    if (!('token' in context) || !context.token) return;
    request.http?.headers.set('authorization', `Bearer ${context.token}`);
    request.http?.headers.set('x-request-id', context.requestId);
  }
}

/**
 * Scopes enforced before planning (libs/auth scopes.ts): a request asking more than its token's
 * scopes grant is refused whole, HTTP 403 INSUFFICIENT_SCOPE, and nothing is fetched. The
 * subgraphs check the same catalog again for calls that do not come through here.
 */
import type { ApolloServerPlugin } from '@apollo/server';
import { checkScopes } from '@fleetgraph/auth';
import type { GatewayContext } from '../context';

export function scopesPlugin(): ApolloServerPlugin<GatewayContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ document, contextValue, request }) {
          const refusal = checkScopes(document, contextValue.user, request.variables);
          if (refusal) throw refusal;
        },
      };
    },
  };
}

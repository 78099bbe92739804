/**
 * Introspection on or off (INTROSPECTION, default true). When off, an operation that selects
 * `__schema` or `__type` anywhere (fragments included) is refused before planning with
 * INTROSPECTION_DISABLED (HTTP 400); `__typename` stays allowed, as clients need it. Apollo
 * Server's own switch would answer GRAPHQL_VALIDATION_FAILED with advice about its constructor
 * options, so the gateway leaves it on and decides here.
 */
import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import { BREAK, GraphQLError, visit, type DocumentNode } from 'graphql';

export const INTROSPECTION_DISABLED = 'INTROSPECTION_DISABLED';

export function selectsIntrospection(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    Field(node) {
      if (node.name.value === '__schema' || node.name.value === '__type') {
        found = true;
        return BREAK;
      }
      return undefined;
    },
  });
  return found;
}

export function introspectionPlugin<C extends BaseContext = BaseContext>(
  enabled: boolean,
): ApolloServerPlugin<C> {
  if (enabled) return {};
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ document }) {
          if (!selectsIntrospection(document)) return;
          throw new GraphQLError(
            'Introspection is disabled on this gateway (INTROSPECTION=false): query the fields you need, or ask for the schema file.',
            { extensions: { code: INTROSPECTION_DISABLED, http: { status: 400 } } },
          );
        },
      };
    },
  };
}

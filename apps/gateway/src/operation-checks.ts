/**
 * Client mistakes that @apollo/gateway would otherwise meet only while planning (and answer as
 * HTTP 500 INVALID_GRAPHQL), refused before planning with HTTP 400 and a code:
 * - no operation to run: several operations and no operationName, or an operationName that names
 *   none of them (OPERATION_RESOLUTION_FAILURE);
 * - a mutation or subscription: this graph is read-only (GRAPHQL_VALIDATION_FAILED);
 * - a number literal that is not finite, such as 1e400 (BAD_USER_INPUT): GraphQL's Float
 *   accepts it while parsing, but no subgraph request can carry it.
 */
import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import {
  GraphQLError,
  Kind,
  OperationTypeNode,
  visit,
  type DocumentNode,
  type OperationDefinitionNode,
} from 'graphql';

const badRequest = (message: string, code: string, extra: Record<string, unknown> = {}) =>
  new GraphQLError(message, { extensions: { code, http: { status: 400 }, ...extra } });

function resolutionError(document: DocumentNode, operationName: string | null | undefined): GraphQLError {
  const names = document.definitions.flatMap((d) =>
    d.kind === Kind.OPERATION_DEFINITION ? [d.name?.value ?? '(anonymous)'] : [],
  );
  if (operationName)
    return badRequest(
      `No operation named "${operationName}" in the document (it has: ${names.join(', ') || 'none'}).`,
      'OPERATION_RESOLUTION_FAILURE',
    );
  return badRequest(
    `The document holds ${names.length} operations (${names.join(', ')}): say which to run with operationName.`,
    'OPERATION_RESOLUTION_FAILURE',
  );
}

/**
 * Per operation node: Apollo Server reuses the parsed document of a query text it has seen, so a
 * repeated query is walked once (the walk was 1.5 % of the gateway's busy CPU on `account`).
 */
const literals = new WeakMap<OperationDefinitionNode, { found: string | undefined }>();

function nonFiniteLiteral(operation: OperationDefinitionNode): string | undefined {
  let known = literals.get(operation);
  if (!known) literals.set(operation, (known = { found: findNonFiniteLiteral(operation) }));
  return known.found;
}

function findNonFiniteLiteral(operation: OperationDefinitionNode): string | undefined {
  let found: string | undefined;
  visit(operation, {
    FloatValue(node) {
      if (!Number.isFinite(Number(node.value))) found ??= node.value;
    },
    IntValue(node) {
      if (!Number.isFinite(Number(node.value))) found ??= node.value;
    },
  });
  return found;
}

export function operationChecksPlugin<C extends BaseContext = BaseContext>(): ApolloServerPlugin<C> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ schema, document, operation, request }) {
          if (!operation) throw resolutionError(document, request.operationName);
          if (operation.operation !== OperationTypeNode.QUERY && !schema.getRootType(operation.operation))
            throw badRequest(
              `This graph is read-only: it has no ${operation.operation} operations; send a query.`,
              'GRAPHQL_VALIDATION_FAILED',
            );
          const literal = nonFiniteLiteral(operation);
          if (literal !== undefined)
            throw badRequest(
              `The number ${literal.slice(0, 40)} is out of range: send a finite number.`,
              'BAD_USER_INPUT',
            );
        },
      };
    },
  };
}

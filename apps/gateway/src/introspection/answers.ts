/**
 * Introspection answered once per schema and question: an operation that asks only `__schema`,
 * `__type` and `__typename` is answered from the text of the first identical answer (the same
 * document, operation and variables, on the same schema), written as it is (StoredJson) without
 * walking the schema or serialising it again; concurrent identical questions wait for the first
 * walk instead of starting their own. A walk the gateway has to do is charged to the caller's
 * budget (budget/plugin.ts runs after this plugin); an answer already known is free. A new
 * supergraph is a new schema, so answers of the old one are never served for it.
 */
import type { ApolloServerPlugin } from '@apollo/server';
import { HeaderMap } from '@apollo/server';
import type { GraphQLSchema } from 'graphql';
import { LRUCache } from 'lru-cache';
import { documentHash } from '../cache/plugin';
import { canonicalJson } from '../cache/settings';
import { StoredJson } from '../cache/stored-json';
import { measureOf } from '../limits/plugin';

export interface IntrospectionAnswersOptions {
  /** Bytes of answers kept (least recently used first out). */
  maxBytes: number;
  /** Called when the gateway walks the schema for a question it has no answer to (tests count). */
  onWalk?: () => void;
}

export function introspectionAnswersPlugin<C extends object>(
  options: IntrospectionAnswersOptions,
): ApolloServerPlugin<C> {
  const answers = new LRUCache<string, string>({
    maxSize: options.maxBytes,
    sizeCalculation: (text) => Math.max(1, text.length),
  });
  const walking = new Map<string, Promise<string | undefined>>();
  const schemaIds = new WeakMap<GraphQLSchema, number>();
  let schemas = 0;
  const schemaId = (schema: GraphQLSchema) => {
    let id = schemaIds.get(schema);
    if (id === undefined) schemaIds.set(schema, (id = ++schemas));
    return id;
  };

  return {
    async requestDidStart() {
      let key: string | undefined;
      let settle: ((text: string | undefined) => void) | undefined;
      return {
        async responseForOperation({ contextValue, schema, document, request, operationName }) {
          const measured = measureOf(contextValue);
          if (!measured || measured.cost > 0 || measured.introspection === 0) return null;
          key = `${schemaId(schema)}\u0000${documentHash(document)}\u0000${operationName ?? ''}\u0000${canonicalJson(request.variables ?? {})}`;
          const text = answers.get(key) ?? (await walking.get(key));
          if (text !== undefined)
            return {
              http: { status: undefined, headers: new HeaderMap() },
              body: { kind: 'single', singleResult: { data: new StoredJson(text) as never } },
            };
          walking.set(key, new Promise((resolve) => (settle = resolve)));
          options.onWalk?.();
          return null;
        },
        async willSendResponse({ response }) {
          if (!settle || key === undefined) return;
          const result = response.body.kind === 'single' ? response.body.singleResult : undefined;
          const text = result?.data && !result.errors ? JSON.stringify(result.data) : undefined;
          if (text !== undefined) answers.set(key, text);
          walking.delete(key);
          settle(text);
        },
      };
    },
  };
}

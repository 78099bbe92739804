/**
 * The per-login query cache (spec 4.1 `cache`, spec 8): an Apollo Server plugin plus the local
 * subgraph that answers the `cache` field.
 *
 * Per request, once the operation is resolved and every plugin let it run (nothing is written for
 * a refused operation):
 * - an operation with a `cache` field runs its command first: flush / softFlush on the scope,
 *   then saves the settings for the login (until its access token expires) when saveSettings;
 *   the rest of that request uses the command's settings. A request that flushes is never
 *   answered from the cache nor stored;
 * - any other operation uses the login's saved settings; without any (caching was never turned
 *   on for this login), or with scope NONE, the request bypasses the cache;
 * - the key: a hash of the scope key (from the VERIFIED token: LOGIN = its token id, ACCOUNT = user
 *   id + token scopes), the printed document, the operation name and the canonical variables;
 * - a hit is answered without planning or calling a subgraph; a miss is stored after execution
 *   when the response has data and no errors; extendTtl restarts an entry's ttl on each hit.
 * The response header `x-fleetgraph-cache` says hit, miss or bypass.
 */
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ApolloServerPlugin } from '@apollo/server';
import { HeaderMap } from '@apollo/server';
import { LocalGraphQLDataSource } from '@apollo/gateway';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { print, type DocumentNode, type GraphQLSchema } from 'graphql';
import { loadTypeDefs } from '@fleetgraph/subgraph-kit';
import type { UserContext } from '@fleetgraph/auth';
import { canonicalJson, readCacheCommand, type CacheCommand, type CacheSettings } from './settings';
import { currentEntry, type CacheStore } from './store';
import type { CacheFront } from '../engine';
import { storedBody, storedResult } from './stored-json';

/** The subgraph name the gateway serves itself (tools/compose composes it like the others). */
export const CACHE_SUBGRAPH = 'gateway';
export const CACHE_SCHEMA_DIR = join(dirname(fileURLToPath(import.meta.url)), 'schema');
export const CACHE_HEADER = 'x-fleetgraph-cache';

export type CacheLookupResult = 'hit' | 'miss' | 'bypass';

interface CacheContext {
  user: UserContext;
  /** Operations the gateway runs for itself are neither cached nor counted. */
  internal?: boolean;
}

/** What the plugin decided for one request (kept beside its context object). */
interface RequestState {
  result: CacheLookupResult;
  info?: CacheInfo;
  scopeKey?: string;
  key?: string;
  epoch?: string;
  settings?: CacheSettings;
}

/** The `cache` field's answer (CacheInfo in the SDL). */
export type CacheInfo = CacheCommand;

const states = new WeakMap<object, RequestState>();

/**
 * The hash of a document's printed form, per parsed document: Apollo Server's document store hands
 * the same DocumentNode to every request with the same query, so it is printed and hashed once.
 */
const documentHashes = new WeakMap<DocumentNode, string>();

export function documentHash(document: DocumentNode): string {
  let hash = documentHashes.get(document);
  if (hash === undefined) {
    hash = createHash('sha256').update(print(document)).digest('base64url');
    documentHashes.set(document, hash);
  }
  return hash;
}

/** The entry key: the printed document (by its hash), the operation name and the canonical variables. */
function entryKey(document: DocumentNode, operationName: string | undefined, variables: unknown): string {
  return createHash('sha256')
    .update(documentHash(document))
    .update('\u0000')
    .update(operationName ?? '')
    .update('\u0000')
    .update(canonicalJson(variables ?? {}))
    .digest('base64url');
}

export function scopeKeyOf(user: UserContext, settings: CacheSettings): string | undefined {
  const raw =
    settings.scope === 'LOGIN'
      ? `login:${user.jti}`
      : settings.scope === 'ACCOUNT'
        ? `account:${user.uid}:${[...user.scopes].sort().join(' ')}`
        : undefined;
  return raw === undefined ? undefined : createHash('sha256').update(raw).digest('base64url');
}

export interface ResponseCacheOptions {
  store: CacheStore;
  onLookup?: (result: CacheLookupResult) => void;
  /** Clock in ms for the settings' lifetime (tests). */
  now?: () => number;
  /** The door that answers repeated hits before Apollo Server (front.ts): told what was served. */
  front?: CacheFront;
}

export function responseCachePlugin<C extends CacheContext>(
  options: ResponseCacheOptions,
): ApolloServerPlugin<C> {
  const { store } = options;
  const now = options.now ?? Date.now;
  const { front } = options;
  return {
    async serverWillStart() {
      return {
        // A new supergraph may refuse what the old one accepted: the door forgets everything.
        schemaDidLoadOrUpdate: () => front?.forget(),
      };
    },
    async requestDidStart({ contextValue }) {
      if (contextValue.internal) return {};
      let state: RequestState = { result: 'bypass' };
      let command: CacheCommand | undefined;
      let user: UserContext | undefined;
      return {
        // Only reads here: every plugin's didResolveOperation runs at once, and another (the
        // query limits, introspection) may still refuse the operation. Writes wait for
        // responseForOperation, which runs only for an operation that will execute.
        async didResolveOperation({ schema, document, operation, request, contextValue }) {
          if (!operation || operation.operation !== 'query') return;
          user = contextValue.user;
          command = readCacheCommand(schema, document, operation, request.variables);
          let settings: CacheSettings | undefined;
          if (command) {
            state = { result: 'bypass', info: command };
            states.set(contextValue, state);
            if (command.flush || command.softFlush) return;
            settings = command;
          } else {
            settings = await store.getSettings(user.jti);
          }
          if (!settings || !store.available()) return;
          const scopeKey = scopeKeyOf(user, settings);
          if (!scopeKey) return;
          const key = entryKey(document, request.operationName, request.variables);
          state = { ...state, scopeKey, key, settings };
          states.set(contextValue, state);
        },
        async responseForOperation() {
          if (command && user) {
            // The `cache` command: flush or outdate the scope, then keep the settings for the login.
            const scopeKey = scopeKeyOf(user, command);
            if (scopeKey && command.flush) await store.flush(scopeKey);
            else if (scopeKey && command.softFlush) await store.bumpEpoch(scopeKey);
            if (command.saveSettings) {
              const { scope, ttl, extendTtl } = command;
              await store.saveSettings(user.jti, { scope, ttl, extendTtl }, user.exp * 1000 - now());
            }
          }
          if (!state.scopeKey || !state.key || !state.settings) return null;
          const current = await currentEntry(store, state.scopeKey, state.key);
          if (!current) return null;
          state.epoch = current.epoch;
          state.result = 'miss';
          if (current.body === undefined) return null;
          state.result = 'hit';
          if (state.settings.extendTtl)
            await store.touch(state.scopeKey, state.key, state.settings.ttl * 1000);
          return {
            http: { status: undefined, headers: new HeaderMap() },
            body: { kind: 'single', singleResult: storedResult(current.body) },
          };
        },
        async willSendResponse({ request, operationName, response }) {
          options.onLookup?.(state.result);
          response.http.headers.set(CACHE_HEADER, state.result);
          if (!state.scopeKey || !state.key || !state.settings) return;
          const served = () => {
            if (!command && request.query !== undefined && request.extensions === undefined)
              front?.remember({
                query: request.query,
                operationName: request.operationName,
                variables: request.variables,
                key: state.key!,
                operation: operationName ?? undefined,
              });
          };
          if (state.result === 'hit') return served();
          if (state.result !== 'miss' || response.body.kind !== 'single') return;
          const { data, errors } = response.body.singleResult;
          if (errors?.length || data === undefined || data === null) return;
          await store.store(
            state.scopeKey,
            state.key,
            { epoch: state.epoch ?? '', body: storedBody(data) },
            state.settings.ttl * 1000,
          );
          served();
        },
      };
    },
  };
}

/** The `cache` field's answer: what the plugin did for this request. */
function cacheInfoFor(context: object): CacheInfo | null {
  return states.get(context)?.info ?? null;
}

/** The local subgraph answering `cache`, executed in-process by the gateway. */
export function cacheSubgraph(): { schema: GraphQLSchema; dataSource: LocalGraphQLDataSource } {
  const schema = buildSubgraphSchema({
    typeDefs: loadTypeDefs(CACHE_SCHEMA_DIR),
    resolvers: {
      Query: {
        cache: (_root: unknown, _args: unknown, context: object) => cacheInfoFor(context),
      },
    } as never,
  });
  return { schema, dataSource: new LocalGraphQLDataSource(schema) };
}

/** For tests: the request state of a context. */
export function requestStateOf(context: object): Readonly<RequestState> | undefined {
  return states.get(context);
}

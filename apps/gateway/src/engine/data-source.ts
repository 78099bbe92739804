import { EventEmitter } from 'node:events';
import type { GraphQLDataSource, GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import type { GatewayGraphQLResponse } from '@apollo/server-gateway-interface';
import { context as otelContext, propagation } from '@opentelemetry/api';
import type { FastifyBaseLogger } from 'fastify';
import { Pool } from 'undici';
import { Kind, parse, type DocumentNode, type GraphQLFormattedError } from 'graphql';
import { GATEWAY_SECRET_HEADER, TENANT_HEADER } from '@fleetgraph/auth';
import { tracingEnabled } from '@fleetgraph/service-kit';
import type { GatewayContext } from '../context';
import type { GatewayMetrics, SubgraphFetchOutcome } from '../observability/metrics';
import { holdForPassThrough } from './result-shaping/pass-through';
import { AdmissionRefused, type Admission } from '../admission/admission';

/** One keep-alive undici Pool per subgraph origin, shared by every data source, and their close. */
export interface SubgraphPools {
  /** The pool of `origin` (created on first use). */
  poolFor(origin: string): Pool;
  close(): Promise<void>;
}

/**
 * Bounded keep-alive pools for subgraph calls: at most `connections` sockets per subgraph origin,
 * reused across requests and across supergraph reloads (which build new data sources).
 */
export function createSubgraphPools(connections: number, keepAliveMs = 30_000): SubgraphPools {
  const pools = new Map<string, Pool>();
  return {
    poolFor(origin) {
      let pool = pools.get(origin);
      if (!pool) {
        pool = new Pool(origin, { connections, keepAliveTimeout: keepAliveMs, pipelining: 1 });
        pools.set(origin, pool);
      }
      return pool;
    },
    async close() {
      await Promise.all([...pools.values()].map((pool) => pool.close()));
      pools.clear();
    },
  };
}

export interface ForwardingDataSourceOptions {
  /** The subgraph's name in the supergraph (labels, error extensions). */
  name: string;
  url: string;
  /** A call not answered within this many milliseconds is aborted: SUBGRAPH_TIMEOUT. */
  timeoutMs: number;
  pools: SubgraphPools;
  metrics?: GatewayMetrics;
  log?: FastifyBaseLogger;
  /** SUBGRAPH_SHARED_SECRET, sent in GATEWAY_SECRET_HEADER on every call. */
  subgraphSecret?: string;
  /** Collapse identical in-flight query calls of one login (SUBGRAPH_DEDUP, default on). */
  collapse?: boolean;
  /** Called when a call joined one in flight (tests wait on it). */
  onCollapsed?: (subgraph: string) => void;
  /** Calls in flight to this subgraph and the tenants' queues (admission/admission.ts). */
  admission?: Admission;
}

type ProcessOptions = GraphQLDataSourceProcessOptions<GatewayContext>;

interface Failure {
  outcome: SubgraphFetchOutcome;
  /** The subgraph's own GraphQL errors (an HTTP error status with a GraphQL body). */
  response?: GatewayGraphQLResponse;
  code?: 'SUBGRAPH_TIMEOUT' | 'SUBGRAPH_UNAVAILABLE' | 'SUBGRAPH_BUSY';
  message?: string;
  /** Retryable refusals say when (SUBGRAPH_BUSY). */
  retryAfterSeconds?: number;
}

/** How long a caller refused for a full queue is told to wait before retrying. */
export const SUBGRAPH_BUSY_RETRY_SECONDS = 1;

/** A subgraph answer that is not a GraphQL response: an error status, or a body that is not JSON. */
class SubgraphHttpError extends Error {
  constructor(
    readonly status: number,
    /** The parsed body when it was JSON. */
    readonly body: unknown,
  ) {
    super(`subgraph answered HTTP ${status}`);
    this.name = 'SubgraphHttpError';
  }
}

/** What a call's timer aborts it with (classified as SUBGRAPH_TIMEOUT). */
class SubgraphTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms`);
    this.name = 'TimeoutError';
  }
}

/** What a call is aborted with when its client went away (nobody waits for the answer). */
class ClientGoneError extends Error {
  constructor() {
    super('the client went away');
    this.name = 'ClientGoneError';
  }
}

/**
 * The abort signal of one call, armed by one timer that the call clears when it completes (an
 * EventEmitter, which undici accepts: lighter than an AbortController per call), and by the
 * client's request going away. Aborting the call closes its connection, which the subgraph takes
 * as the signal to stop the request's work.
 */
class CallDeadline extends EventEmitter {
  aborted = false;
  reason: Error | undefined;
  private readonly timer: NodeJS.Timeout;
  private readonly clientGone = () => this.abort(new ClientGoneError());

  constructor(
    timeoutMs: number,
    private readonly client: AbortSignal | undefined,
  ) {
    super();
    this.timer = setTimeout(() => this.abort(new SubgraphTimeoutError(timeoutMs)), timeoutMs);
    if (client?.aborted) this.abort(new ClientGoneError());
    else client?.addEventListener('abort', this.clientGone, { once: true });
  }

  private abort(reason: Error): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.emit('abort');
  }

  clear(): void {
    clearTimeout(this.timer);
    this.client?.removeEventListener('abort', this.clientGone);
  }
}

/**
 * Calls one subgraph for the gateway.
 * - Forwards the caller's bearer token (the subgraph verifies it itself: it never trusts an
 *   unauthenticated caller), the request id (in the subgraph's log lines) and, when tracing, the
 *   W3C traceparent of the gateway's fetch span.
 * - Calls with undici's `Pool.request` on a bounded keep-alive pool per subgraph: no WHATWG fetch
 *   machinery (Request/Headers/streams objects per call, a body clone for redirects), which
 *   dominates the gateway's CPU on small queries.
 * - Aborts a call after the subgraph's timeout (one timer per call, cleared when the answer is
 *   read). A subgraph that is down, times out or answers something that is not GraphQL does not
 *   fail the request: its fields get errors (SUBGRAPH_UNAVAILABLE / SUBGRAPH_TIMEOUT with the
 *   service name, never its URL) and the other subgraphs' fields are served.
 */
export class ForwardingDataSource implements GraphQLDataSource<GatewayContext> {
  private readonly options: ForwardingDataSourceOptions;
  private readonly pool: Pool;
  private readonly path: string;

  constructor(options: ForwardingDataSourceOptions) {
    this.options = options;
    const url = new URL(options.url);
    this.pool = options.pools.poolFor(url.origin);
    this.path = `${url.pathname}${url.search}`;
  }

  /** Calls in flight by collapse key (see collapseKey). */
  private readonly inFlight = new Map<string, Promise<GatewayGraphQLResponse>>();

  /**
   * In-flight collapsing: a query call identical to one already on its way to this subgraph
   * (same request body: document, variables, operation name) FOR THE SAME LOGIN (the bearer token
   * is part of the key, so answers are never shared across logins) waits for that call's answer
   * instead of sending its own: a dashboard polled by many tabs, or many cards asking the same
   * entity, costs the subgraph one call. Each waiter gets its own copy (the gateway merges answers
   * into its result tree). Never for mutations.
   */
  async process(options: ProcessOptions): Promise<GatewayGraphQLResponse> {
    const body = requestBody(options);
    const key = this.collapseKey(options, body);
    if (!key) return this.passing(options, await this.processOnce(options, body));
    const pending = this.inFlight.get(key);
    if (pending) {
      this.options.metrics?.subgraphCollapsed(this.options.name);
      this.options.onCollapsed?.(this.options.name);
      return this.passing(options, copyOf(await pending));
    }
    const call = this.processOnce(options, body).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, call);
    return this.passing(options, await call);
  }

  /** The caller's answer, held for shaping to pass through when its plan allows (pass-through.ts). */
  private passing(options: ProcessOptions, answer: GatewayGraphQLResponse): GatewayGraphQLResponse {
    const passed = holdForPassThrough(options.context, answer, answerTexts.get(answer));
    // Answers of the gateway's own operations (the tenant lookup) are not client answers.
    if (passed && !(options.context as Partial<GatewayContext>).internal)
      this.options.metrics?.subgraphPassedThrough(this.options.name);
    return answer;
  }

  private collapseKey(options: ProcessOptions, body: string): string | undefined {
    if (this.options.collapse === false) return undefined;
    if (options.kind !== ('incoming operation' as typeof options.kind)) return undefined;
    const token = bearerOf(options.context);
    if (!token) return undefined;
    const incoming = 'incomingRequestContext' in options ? options.incomingRequestContext : undefined;
    if (incoming?.operation?.operation !== 'query' || !options.request.query) return undefined;
    return `${token}\n${body}`;
  }

  private async processOnce(options: ProcessOptions, body: string): Promise<GatewayGraphQLResponse> {
    const started = performance.now();
    const { name, metrics } = this.options;
    try {
      const response = await this.send(options, body);
      metrics?.subgraphFetch(name, response.errors?.length ? 'graphql_error' : 'ok', seconds(started));
      return response;
    } catch (error) {
      const failure = this.classify(error);
      metrics?.subgraphFetch(name, failure.outcome, seconds(started));
      // Schema loading and health checks keep their own error handling.
      // (GraphQLDataSourceRequestKind is not exported by @apollo/gateway's entry point.)
      if (options.kind !== ('incoming operation' as typeof options.kind)) throw error;
      if (failure.response) return failure.response;
      const { code, cause } = error as { code?: string; cause?: { code?: string } };
      // The request's logger (so the line carries its request id); a collapsed call's is the
      // first caller's.
      const log = (options.context as Partial<GatewayContext> | undefined)?.log ?? this.options.log;
      log?.warn(
        { subgraph: name, code: failure.code, error: (error as Error).message, cause: code ?? cause?.code },
        'subgraph call failed',
      );
      return { errors: fieldErrors(options, failure) };
    }
  }

  /**
   * One POST to the subgraph once admitted (the time spent waiting counts against the call's
   * deadline), its answer read and parsed before the call's timer is cleared.
   */
  private async send(options: ProcessOptions, body: string): Promise<GatewayGraphQLResponse> {
    if (!options.request.query) throw new Error('Missing query');
    const context = options.context as Partial<GatewayContext>;
    const deadline = new CallDeadline(this.options.timeoutMs, context.signal);
    const release = this.options.admission
      ? await this.options.admission.enter(context.tenant ?? '', deadline).catch((error: unknown) => {
          deadline.clear();
          throw error;
        })
      : undefined;
    try {
      const response = await this.pool.request({
        path: this.path,
        method: 'POST',
        headers: this.headersFor(options),
        body,
        signal: deadline,
      });
      const text = await response.body.text();
      const parsed = parseAnswer(response.statusCode, response.headers['content-type'], text);
      answerTexts.set(parsed, text);
      restrictCachePolicy(options, response.headers['cache-control']);
      return parsed;
    } finally {
      deadline.clear();
      release?.();
    }
  }

  private headersFor(options: ProcessOptions): Record<string, string> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    // Headers the gateway itself asks for (e.g. apollo-federation-include-trace).
    const given = options.request.http?.headers;
    if (given) for (const [name, value] of given) headers[name] = value;
    // The subgraphs answer only the gateway when they share this secret.
    if (this.options.subgraphSecret) headers[GATEWAY_SECRET_HEADER] = this.options.subgraphSecret;
    const context = options.context;
    const token = bearerOf(context);
    if (!token) return headers;
    headers.authorization = `Bearer ${token}`;
    headers['x-request-id'] = (context as GatewayContext).requestId;
    const tenant = (context as GatewayContext).tenant;
    if (tenant) headers[TENANT_HEADER] = tenant;
    if (tracingEnabled()) propagation.inject(otelContext.active(), headers);
    return headers;
  }

  private classify(error: unknown): Failure {
    const { name, timeoutMs } = this.options;
    const err = error as Error | undefined;
    if (err instanceof AdmissionRefused) {
      return {
        outcome: 'busy',
        code: 'SUBGRAPH_BUSY',
        message:
          err.scope === 'tenant'
            ? `The ${name} service has too many of your organization's requests waiting; retry in ${SUBGRAPH_BUSY_RETRY_SECONDS} s`
            : `The ${name} service is busy; retry in ${SUBGRAPH_BUSY_RETRY_SECONDS} s`,
        retryAfterSeconds: SUBGRAPH_BUSY_RETRY_SECONDS,
      };
    }
    if (err instanceof ClientGoneError) {
      return { outcome: 'cancelled', code: 'SUBGRAPH_UNAVAILABLE', message: 'The request was cancelled' };
    }
    if (err?.name === 'TimeoutError' || err?.name === 'AbortError') {
      return {
        outcome: 'timeout',
        code: 'SUBGRAPH_TIMEOUT',
        message: `The ${name} service did not answer within ${timeoutMs} ms`,
      };
    }
    if (err instanceof SubgraphHttpError) {
      const body = err.body as { data?: unknown; errors?: unknown } | undefined;
      if (body && typeof body === 'object' && Array.isArray(body.errors) && body.errors.length > 0) {
        // An error status with a GraphQL body (e.g. 401 UNAUTHENTICATED): pass its errors on.
        return {
          outcome: 'http_error',
          response: {
            ...(body.data !== undefined ? { data: body.data as Record<string, unknown> | null } : {}),
            errors: body.errors as GraphQLFormattedError[],
          },
        };
      }
      return {
        outcome: 'http_error',
        code: 'SUBGRAPH_UNAVAILABLE',
        message: `The ${name} service is unavailable (HTTP ${err.status})`,
      };
    }
    return {
      outcome: 'unavailable',
      code: 'SUBGRAPH_UNAVAILABLE',
      message: `The ${name} service is unavailable`,
    };
  }
}

/** The text each parsed subgraph answer (or a collapsed caller's copy) was read from. */
const answerTexts = new WeakMap<GatewayGraphQLResponse, string>();

/**
 * A caller's own copy of an answer shared by collapsing: parsed again from the subgraph's text
 * (faster than structuredClone, and untouched by what the first caller's request did with its
 * copy); an answer made here (field errors) is cloned.
 */
function copyOf(answer: GatewayGraphQLResponse): GatewayGraphQLResponse {
  const text = answerTexts.get(answer);
  if (text === undefined) return structuredClone(answer);
  const copy = JSON.parse(text) as GatewayGraphQLResponse;
  answerTexts.set(copy, text);
  return copy;
}

function bearerOf(context: object): string | undefined {
  const token = (context as Partial<GatewayContext>).token;
  return typeof token === 'string' && token ? token : undefined;
}

/** The POST body: the same fields, in the same order, as Apollo's RemoteGraphQLDataSource sends. */
function requestBody(options: ProcessOptions): string {
  const { query, variables, operationName, extensions } = options.request;
  return JSON.stringify({ query, variables, operationName, extensions });
}

const JSON_TYPES = ['application/json', 'application/graphql-response+json'];

/**
 * The subgraph's answer as a GraphQL response. An error status throws SubgraphHttpError (with the
 * body when it is JSON, so a GraphQL error body is passed on); a 2xx that is not a JSON object is
 * not a GraphQL answer (SUBGRAPH_UNAVAILABLE).
 */
function parseAnswer(
  status: number,
  contentType: string | string[] | undefined,
  text: string,
): GatewayGraphQLResponse {
  const json = typeof contentType === 'string' && JSON_TYPES.some((type) => contentType.startsWith(type));
  if (status < 200 || status > 299) throw new SubgraphHttpError(status, json ? safeJson(text) : text);
  if (!json) throw new Error(`Expected a JSON response body, got ${String(contentType)}`);
  const body = JSON.parse(text) as unknown;
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new Error('Expected a JSON object as the response body');
  return body as GatewayGraphQLResponse;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * As Apollo's RemoteGraphQLDataSource: the subgraph's Cache-Control (max-age, public/private)
 * restricts the incoming request's overall cache policy; no max-age counts as 0.
 */
function restrictCachePolicy(options: ProcessOptions, header: string | string[] | undefined): void {
  if (options.kind !== ('incoming operation' as typeof options.kind)) return;
  const policy =
    'incomingRequestContext' in options ? options.incomingRequestContext.overallCachePolicy : undefined;
  if (!policy || !('restrict' in policy)) return;
  const directives =
    typeof header === 'string'
      ? header
          .toLowerCase()
          .split(',')
          .map((d) => d.trim())
      : [];
  const maxAge = directives.find((d) => /^max-age=\d+$/.test(d));
  policy.restrict({
    maxAge: maxAge ? Number(maxAge.slice('max-age='.length)) : 0,
    ...(directives.includes('private') ? { scope: 'PRIVATE' as const } : {}),
    ...(directives.includes('public') ? { scope: 'PUBLIC' as const } : {}),
  });
}

function seconds(started: number): number {
  return (performance.now() - started) / 1000;
}

/**
 * One error per field the failed call was to fill: for a root call each top-level field of the
 * subgraph operation ([responseKey]); for an entity call each entity (['_entities', i], which the
 * gateway maps to the entity's path in the response).
 */
function fieldErrors(options: ProcessOptions, failure: Failure): GraphQLFormattedError[] {
  // The gateway adds extensions.serviceName to every error a subgraph call returns.
  const extensions = {
    code: failure.code,
    ...(failure.retryAfterSeconds ? { retryable: true, retryAfterSeconds: failure.retryAfterSeconds } : {}),
  };
  const make = (path?: (string | number)[]) => ({
    message: failure.message ?? 'Subgraph unavailable',
    ...(path ? { path } : {}),
    extensions,
  });
  const representations = options.request.variables?.representations;
  if (Array.isArray(representations)) return representations.map((_, i) => make(['_entities', i]));
  const given = 'document' in options ? options.document : undefined;
  const document: DocumentNode | undefined =
    given ?? (options.request.query ? safeParse(options.request.query) : undefined);
  const operation = document?.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
  const keys =
    operation?.kind === Kind.OPERATION_DEFINITION
      ? operation.selectionSet.selections.flatMap((s) =>
          s.kind === Kind.FIELD ? [s.alias?.value ?? s.name.value] : [],
        )
      : [];
  return keys.length > 0 ? keys.map((key) => make([key])) : [make()];
}

function safeParse(query: string): DocumentNode | undefined {
  try {
    return parse(query);
  } catch {
    return undefined;
  }
}

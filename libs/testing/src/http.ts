/** GraphQL over HTTP helpers for tests: through a Fastify instance (inject) or a real URL. */
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';

export interface GraphQLResponse<D = Record<string, unknown>> {
  status: number;
  headers: Record<string, unknown>;
  data?: D | null;
  errors?: Array<{ message: string; path?: (string | number)[]; extensions?: Record<string, unknown> }>;
  extensions?: Record<string, unknown>;
}

/** The data of an answer that must have succeeded: fails on any error and on missing data. */
export function dataOf<D = any>(response: { data?: D | null; errors?: unknown }): D {
  assert.equal(response.errors, undefined, JSON.stringify(response.errors));
  assert.ok(response.data, 'the answer has data');
  return response.data;
}

export async function injectGraphQL<D = any>(
  app: FastifyInstance,
  query: string,
  options: {
    variables?: Record<string, unknown>;
    token?: string;
    path?: string;
    headers?: Record<string, string>;
    operationName?: string;
  } = {},
): Promise<GraphQLResponse<D>> {
  const response = await app.inject({
    method: 'POST',
    url: options.path ?? '/graphql',
    headers: {
      'content-type': 'application/json',
      // As current clients do (GraphQL over HTTP): refusals then keep their 4xx status.
      accept: 'application/graphql-response+json, application/json',
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...options.headers,
    },
    payload: JSON.stringify({
      query,
      variables: options.variables ?? {},
      ...(options.operationName ? { operationName: options.operationName } : {}),
    }),
  });
  const body = response.json() as Pick<GraphQLResponse<D>, 'data' | 'errors' | 'extensions'>;
  return { status: response.statusCode, headers: response.headers, ...body };
}

export async function postGraphQL<D = any>(
  url: string,
  query: string,
  options: { variables?: Record<string, unknown>; token?: string; headers?: Record<string, string> } = {},
): Promise<GraphQLResponse<D>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json, application/json',
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...options.headers,
    },
    body: JSON.stringify({ query, variables: options.variables ?? {} }),
  });
  const body = (await response.json()) as { data?: D; errors?: GraphQLResponse['errors'] };
  return { status: response.status, headers: Object.fromEntries(response.headers), ...body };
}

/** Counts SQL statements; pass `counter.record` as knex's onQuery. */
export function createStatementCounter() {
  let statements: string[] = [];
  return {
    record: (sql: string) => {
      statements.push(sql);
    },
    reset: () => {
      statements = [];
    },
    get count() {
      return statements.length;
    },
    get statements() {
      return [...statements];
    },
  };
}

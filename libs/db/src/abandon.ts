/**
 * Statements of a request nobody waits for any more stop: a request's knex (knexFor) carries the
 * request's abort signal on every statement it starts, and the pg client (installed by createKnex)
 * - refuses to start a statement once the signal has fired (the loaders stop fetching), and
 * - cancels a statement running when it fires (pg_cancel_backend on the statement's connection,
 *   which frees the connection for requests someone waits for).
 * Both fail with RequestAbandoned, which the subgraph kit recognises: the answer goes nowhere,
 * so it is neither logged per field nor counted as an error.
 */
import type { Knex } from 'knex';

export class RequestAbandoned extends Error {
  constructor() {
    super('the request was abandoned by its caller');
    this.name = 'RequestAbandoned';
  }
}

/** PostgreSQL's SQLSTATE for a statement cancelled on request (57014). */
const QUERY_CANCELED = '57014';

export function isRequestAbandoned(error: unknown): boolean {
  return error instanceof RequestAbandoned;
}

interface QueryObject {
  queryContext?: { signal?: AbortSignal } | undefined;
}
interface PgDialectClient {
  _query(connection: unknown, obj: QueryObject): Promise<unknown>;
  cancelQuery(connection: unknown): Promise<unknown>;
}

const signals = new WeakMap<object, AbortSignal>();

/** The abort signal a request's knex carries (knexFor), if any. */
export function signalOf(knex: Knex): AbortSignal | undefined {
  return signals.get(knex);
}

/**
 * Runs one statement on `connection`, cancelled through `cancel` when `signal` fires meanwhile;
 * refused before it starts when the signal has fired already.
 */
export async function runAbandonable<T>(
  signal: AbortSignal | undefined,
  cancel: () => Promise<unknown>,
  run: () => Promise<T>,
): Promise<T> {
  if (!signal) return run();
  if (signal.aborted) throw new RequestAbandoned();
  const onAbort = () => void cancel().catch(() => undefined);
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    return await run();
  } catch (error) {
    if (signal.aborted && (error as { code?: string }).code === QUERY_CANCELED) throw new RequestAbandoned();
    throw error;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/** Makes this knex's statements follow the abort signal their builder carries (see the module comment). */
export function cancelAbandonedStatements(knex: Knex): void {
  const client = knex.client as unknown as PgDialectClient;
  const run = client._query.bind(client);
  client._query = (connection, obj) =>
    runAbandonable(
      obj.queryContext?.signal,
      () => client.cancelQuery(connection),
      () => run(connection, obj),
    );
}

/**
 * A knex whose every statement carries `signal`: `knex(table)`, `knex.select(...)`,
 * `knex.raw(...)` and the statements preparedQuery and sqlTemplate run with it. Writes in a
 * transaction (`knex.transaction`) are not tied to it: a write either completes or rolls back.
 */
export function knexFor(knex: Knex, signal: AbortSignal): Knex {
  const context = { signal };
  const scoped = new Proxy(knex, {
    apply: (target, _self, args: Parameters<Knex>) => target(...args).queryContext(context),
    get(target, property, receiver) {
      if (property === 'queryBuilder') return () => target.queryBuilder().queryContext(context);
      if (property === 'raw')
        return (...args: Parameters<Knex['raw']>) => target.raw(...args).queryContext(context);
      return Reflect.get(target, property, receiver);
    },
  });
  signals.set(scoped, signal);
  return scoped;
}

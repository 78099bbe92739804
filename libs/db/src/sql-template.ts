/**
 * A knex query compiled once per process, then only bound: the hot batched lookups (an entity by
 * id, a page of children per parent) have one shape whatever the request, yet knex rebuilt and
 * recompiled that shape on every call: about an eighth of a subgraph's busy CPU on fleet-core's
 * deep page (tools/bench/src/subgraph-engine.ts, profiled).
 *
 * `sqlTemplate(names, build)` calls `build` a single time, with a placeholder for each named
 * parameter, and keeps the SQL text and where each placeholder landed among the bindings; a call
 * then puts the values in those places and runs the text as a named prepared statement (when the
 * knex instance prepares reads) on a pooled connection, emitting knex's 'query' event like any
 * statement. A placeholder may only be bound: one that knex reads as text (`limit(param)` parses
 * an integer) fails at compile time, never silently. A shape may leave a parameter unused (a
 * relation whose children need no viewer). Bindings that are not placeholders (constants of the
 * shape) are kept as compiled.
 */
import type { Knex } from 'knex';
import { isPreparing, runStatement, statementName } from './prepared-statements';

/** A named parameter of a template, standing in for its value while the shape is compiled. */
export class SqlParam {
  constructor(readonly name: string) {}
  toString(): string {
    throw new Error(`sqlTemplate: parameter "${this.name}" was read as text; it may only be bound`);
  }
  valueOf(): never {
    throw new Error(`sqlTemplate: parameter "${this.name}" was read as a value; it may only be bound`);
  }
}

type Values = Record<string, unknown>;
type Slot<P extends Values> = { param: keyof P & string } | { constant: unknown };

interface Compiled<P extends Values> {
  text: string;
  name: string;
  slots: Slot<P>[];
}

export interface SqlTemplate<P extends Values> {
  /** The rows of the statement with these values. */
  rows<R = Record<string, unknown>>(knex: Knex, values: P): Promise<R[]>;
  /** The compiled text ($1, $2... placeholders), for tests and diagnostics. */
  text(knex: Knex): string;
}

/**
 * Builds the shape, once per process. `params` holds a placeholder (SqlParam) per name, typed as
 * the value it stands for so that it fits wherever the value would; it may only be bound, never
 * read. Anything else the shape uses is frozen at that first call: no clock, no request state.
 */
export type TemplateBuild<P extends Values> = (knex: Knex, params: P) => Knex.QueryBuilder | Knex.Raw;

export function sqlTemplate<P extends Values>(
  names: readonly (keyof P & string)[],
  build: TemplateBuild<P>,
): SqlTemplate<P> {
  let compiled: Compiled<P> | undefined;
  const compile = (knex: Knex) => (compiled ??= compileTemplate(knex, names, build));
  return {
    text: (knex) => compile(knex).text,
    async rows<R>(knex: Knex, values: P): Promise<R[]> {
      const { text, name, slots } = compile(knex);
      const bound = slots.map((slot) => ('param' in slot ? values[slot.param] : slot.constant));
      return runStatement<R>(knex, isPreparing(knex) ? name : undefined, text, bound);
    },
  };
}

function compileTemplate<P extends Values>(
  knex: Knex,
  names: readonly (keyof P & string)[],
  build: TemplateBuild<P>,
): Compiled<P> {
  const params = Object.fromEntries(names.map((name) => [name, new SqlParam(name)])) as unknown as P;
  const native = build(knex, params).toSQL().toNative();
  const slots = native.bindings.map((binding): Slot<P> =>
    binding instanceof SqlParam ? { param: binding.name } : { constant: binding },
  );
  return { text: native.sql, name: statementName(native.sql), slots };
}

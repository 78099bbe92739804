/**
 * SQL of an aggregate kept exact by statement-level triggers with transition tables: every writer
 * of the source table keeps it without knowing (an import, a seed, a correction by SQL). Inserted
 * rows (`added`) are applied by `onInsert`, deleted ones (`gone`) by `onDelete`, an update by
 * `onUpdate` (both tables), truncate by `onTruncate`. Each body is PL/pgSQL run once per statement.
 */
export interface KeptAggregate {
  /** Schema-qualified source table, e.g. `fleet.trips`. */
  source: string;
  /** Schema of the trigger functions. */
  schema: string;
  /** Name of the aggregate: functions `<schema>.<name>_added` ..., triggers `<table>_<name>_insert` .... */
  name: string;
  /** `declare` section of every body (e.g. `emptied bigint[];`), when one is needed. */
  declare?: string;
  onInsert: string;
  onDelete: string;
  onUpdate: string;
  onTruncate: string;
}

const EVENTS = [
  { event: 'insert', fn: 'added', body: 'onInsert', tables: 'referencing new table as added' },
  { event: 'delete', fn: 'removed', body: 'onDelete', tables: 'referencing old table as gone' },
  {
    event: 'update',
    fn: 'changed',
    body: 'onUpdate',
    tables: 'referencing old table as gone new table as added',
  },
  { event: 'truncate', fn: 'cleared', body: 'onTruncate', tables: '' },
] as const;

const tableName = (source: string) => source.split('.').at(-1)!;

/** The trigger functions and the triggers on the source table. */
export function keptAggregateTriggers(kept: KeptAggregate): string {
  const declare = kept.declare ? `declare ${kept.declare}\n` : '';
  return EVENTS.map(
    ({ event, fn, body, tables }) => `
    create function ${kept.schema}.${kept.name}_${fn}() returns trigger language plpgsql as $$
    ${declare}begin
      ${kept[body]}
      return null;
    end $$;
    create trigger ${tableName(kept.source)}_${kept.name}_${event} after ${event} on ${kept.source}
      ${tables} for each statement execute function ${kept.schema}.${kept.name}_${fn}();`,
  ).join('\n');
}

/** Drops what keptAggregateTriggers made. */
export function dropKeptAggregateTriggers(kept: Pick<KeptAggregate, 'source' | 'schema' | 'name'>): string {
  return EVENTS.map(
    ({ event, fn }) => `
    drop trigger if exists ${tableName(kept.source)}_${kept.name}_${event} on ${kept.source};
    drop function if exists ${kept.schema}.${kept.name}_${fn}();`,
  ).join('\n');
}

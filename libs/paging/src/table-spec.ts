/**
 * A table as the paging helpers see it: its alias, explicit column list (model field -> SQL
 * column) and the keyset order used for paging. Selecting `t.col as "field"` maps rows straight
 * to models, without a per-row mapping pass.
 */
import type { Knex } from 'knex';

export interface TableSpec {
  table: string;
  alias: string;
  /** model field -> SQL column (unqualified) */
  columns: Record<string, string>;
  /** keyset order (qualified columns, the last one unique), the matching model fields, and the
   * direction of every column (default asc; desc for newest-first lists) */
  order: { columns: string[]; fields: string[]; direction?: 'asc' | 'desc' };
  /**
   * Opt-in column projection (projection.ts): the model fields read by each GraphQL field of the
   * type that is not itself a column (`itemName: ['itemTranslations', 'baseItemName']`, a
   * reference `vehicle: ['vehicleId']`; `[]` for a field that reads only the always-selected id and
   * order fields). Without it every column is always selected.
   */
  fieldNeeds?: Readonly<Record<string, readonly string[]>>;
}

/** `alias.column as field` for every column of the spec, or for `fields` only. */
export function selectColumns(spec: TableSpec, fields?: readonly string[]): string[] {
  if (fields) return fields.map((field) => `${spec.alias}.${spec.columns[field]} as ${field}`);
  return Object.entries(spec.columns).map(([field, column]) => `${spec.alias}.${column} as ${field}`);
}

/** `from <table> as <alias>`. */
export function from(knex: Knex, spec: TableSpec): Knex.QueryBuilder {
  return knex(`${spec.table} as ${spec.alias}`);
}

/** The keyset values of a row (model fields of the spec's order). */
export function keyOf(spec: TableSpec) {
  return (row: Record<string, unknown>) => spec.order.fields.map((f) => row[f]);
}

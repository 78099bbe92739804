/**
 * The check behind each subgraph's projection.test.ts: column projection (TableSpec.fieldNeeds)
 * never changes an answer. Every field of a full selection, selected alone (only its columns
 * read), must answer exactly what it answers within the full selection; the full selection must
 * read every column: include a field the table does not declare, or, for a type whose every field
 * is a column or declared, name its tables in `unprojected`.
 */
import assert from 'node:assert/strict';
import { dataOf } from '@fleetgraph/testing';
import { Kind, parse, print, type FieldNode, type OperationDefinitionNode } from 'graphql';
import type { TableSpec } from '@fleetgraph/paging';

export interface ProjectionCase {
  /** Every field of the type, each with its sub-selection. */
  full: string;
  /** The query placing a selection of the type's fields where the list items are. */
  wrap(selection: string): string;
  /** The list items in a successful answer's data. */
  items(data: any): any[];
  /**
   * Tables whose `fieldNeeds` are set aside while the reference answers are read, so that they
   * read every column (the subgraph runs in this process): for a type whose full selection would
   * itself be projected.
   */
  unprojected?: TableSpec[];
}

type Query = (query: string) => Promise<{ data?: any; errors?: unknown }>;

/** Each field of a selection, printed with its own sub-selection. */
export function fieldsOf(selection: string): Array<{ name: string; text: string }> {
  const operation = parse(`{ ${selection} }`).definitions[0] as OperationDefinitionNode;
  return operation.selectionSet.selections
    .filter((s): s is FieldNode => s.kind === Kind.FIELD)
    .map((field) => ({ name: field.name.value, text: print(field) }));
}

async function itemsOf(query: Query, text: string, items: ProjectionCase['items']) {
  return items(dataOf(await query(text)));
}

/**
 * Each query runs twice: Mercurius compiles a query seen before with graphql-jit, whose resolve
 * info the projection reads too.
 */
export async function assertProjectionKeepsAnswers(
  query: Query,
  { full, wrap, items, unprojected = [] }: ProjectionCase,
) {
  const everything = await everyColumn(unprojected, () => itemsOf(query, wrap(full), items));
  assert.ok(everything.length > 0, 'the fixture has rows here');
  assert.deepEqual(await itemsOf(query, wrap(full), items), everything, 'compiled');
  for (const field of fieldsOf(full)) {
    const expected = everything.map((row) => row[field.name]);
    for (const run of ['first', 'compiled']) {
      const alone = await itemsOf(query, wrap(field.text), items);
      assert.deepEqual(
        alone.map((row) => row[field.name]),
        expected,
        `${field.name} (${run})`,
      );
    }
  }
}

/** Runs `read` with the tables' projection off (projectedFields answers every column without fieldNeeds). */
async function everyColumn<T>(specs: TableSpec[], read: () => Promise<T>): Promise<T> {
  const needs = specs.map((spec) => spec.fieldNeeds);
  for (const spec of specs) spec.fieldNeeds = undefined;
  try {
    return await read();
  } finally {
    specs.forEach((spec, i) => (spec.fieldNeeds = needs[i]));
  }
}

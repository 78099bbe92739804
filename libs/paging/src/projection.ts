/**
 * Column projection: a page selects only the columns its GraphQL selection reads. A page of 50
 * reports with ~1,000 answers turned 17 columns per answer into strings, dates and JSON, for a
 * selection reading 5 of them.
 * A table opts in by declaring `fieldNeeds` on its TableSpec; the id and the order fields are
 * always selected (cursors, nested relations, references). A selected field that is neither a
 * column nor declared in `fieldNeeds` selects every column: an unknown field is never starved.
 */
import type { TableSpec } from './table-spec';

const projections = new WeakMap<TableSpec, Map<string, readonly string[] | undefined>>();

function checkNeeds(spec: TableSpec) {
  for (const [field, needs] of Object.entries(spec.fieldNeeds ?? {}))
    for (const need of needs)
      if (!(need in spec.columns))
        throw new Error(
          `${spec.table}: fieldNeeds.${field} names ${need}, which is not a column of the spec`,
        );
}

/**
 * The model fields to select for a selection of GraphQL fields (sorted, no duplicates), or
 * undefined for every column: no selection known, a table without `fieldNeeds`, a field it does
 * not know, or a selection that needs every column anyway. Memoized per spec and selection.
 */
export function projectedFields(
  spec: TableSpec,
  selected: readonly string[] | undefined,
): readonly string[] | undefined {
  if (!selected || !spec.fieldNeeds) return undefined;
  let memo = projections.get(spec);
  if (!memo) {
    checkNeeds(spec);
    projections.set(spec, (memo = new Map()));
  }
  const key = selected.join(',');
  if (memo.has(key)) return memo.get(key);
  const fields = new Set<string>(spec.order.fields);
  if ('id' in spec.columns) fields.add('id');
  let all = false;
  for (const name of selected) {
    if (name === '__typename') continue;
    const needs = spec.fieldNeeds[name];
    if (needs) for (const need of needs) fields.add(need);
    else if (name in spec.columns) fields.add(name);
    else all = true;
  }
  const result = all || fields.size >= Object.keys(spec.columns).length ? undefined : [...fields].sort();
  if (memo.size < 1_000) memo.set(key, result);
  return result;
}

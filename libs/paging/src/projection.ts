/**
 * Column projection: a page selects only the columns its GraphQL selection reads. A page of 50
 * reports with ~1,000 answers turned 17 columns per answer into strings, dates and JSON, for a
 * selection reading 5 of them.
 * A table opts in by declaring `fieldNeeds` on its TableSpec; the id and the order fields are
 * always selected (cursors, nested relations, references). A selected field that is neither a
 * column nor declared in `fieldNeeds` selects every column: an unknown field is never starved.
 */
import type { TableSpec } from './table-spec';

/** Distinct projections per table: each is a statement to compile and prepare; past this many, a
 * new selection reads every column (clients choose selections, statements must stay finite). */
export const MAX_PROJECTIONS = 64;

interface Memo {
  /** By the selection array itself: listFields/selectedFields return one array per document. */
  byArray: WeakMap<readonly string[], readonly string[] | undefined>;
  /** By the selection's names, for arrays seen for the first time. */
  byNames: Map<string, readonly string[] | undefined>;
  distinct: Set<string>;
}

const memos = new WeakMap<TableSpec, Memo>();

function checkNeeds(spec: TableSpec) {
  for (const [field, needs] of Object.entries(spec.fieldNeeds ?? {}))
    for (const need of needs)
      if (!(need in spec.columns))
        throw new Error(
          `${spec.table}: fieldNeeds.${field} names ${need}, which is not a column of the spec`,
        );
}

function project(spec: TableSpec, needs: NonNullable<TableSpec['fieldNeeds']>, selected: readonly string[]) {
  const fields = new Set<string>(spec.order.fields);
  if ('id' in spec.columns) fields.add('id');
  for (const name of selected) {
    if (name === '__typename') continue;
    const needed = needs[name];
    if (needed) for (const need of needed) fields.add(need);
    else if (name in spec.columns) fields.add(name);
    else return undefined;
  }
  return fields.size >= Object.keys(spec.columns).length ? undefined : [...fields].sort();
}

/**
 * The model fields to select for a selection of GraphQL fields (sorted, no duplicates), or
 * undefined for every column: no selection known, a table without `fieldNeeds`, a field it does
 * not know, a selection that needs every column anyway, or a table past MAX_PROJECTIONS.
 * Memoized per spec and selection.
 */
export function projectedFields(
  spec: TableSpec,
  selected: readonly string[] | undefined,
): readonly string[] | undefined {
  if (!selected || !spec.fieldNeeds) return undefined;
  let memo = memos.get(spec);
  if (!memo) {
    checkNeeds(spec);
    memos.set(spec, (memo = { byArray: new WeakMap(), byNames: new Map(), distinct: new Set() }));
  }
  if (memo.byArray.has(selected)) return memo.byArray.get(selected);
  const names = selected.join(',');
  let result: readonly string[] | undefined;
  if (memo.byNames.has(names)) result = memo.byNames.get(names);
  else {
    result = project(spec, spec.fieldNeeds, selected);
    if (result) {
      const name = result.join(',');
      if (!memo.distinct.has(name)) {
        if (memo.distinct.size >= MAX_PROJECTIONS) result = undefined;
        else memo.distinct.add(name);
      }
    }
    if (memo.byNames.size < 1_000) memo.byNames.set(names, result);
  }
  memo.byArray.set(selected, result);
  return result;
}

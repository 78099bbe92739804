/**
 * The fields a client selected under a paged field's `list`, or on an object field, for column projection
 * (libs/paging projection.ts). Fragments and inline fragments are followed; @skip/@include are
 * ignored, so the answer is a superset of what will run (never too few columns). Memoized on the
 * field's AST nodes, which Mercurius keeps for a cached document: one walk per document, not per
 * request.
 */
import { Kind, type FieldNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';
import { projectedFields, type TableSpec } from '@fleetgraph/paging';

type Info = Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>;

type Memo = WeakMap<FieldNode, { nodes: readonly FieldNode[]; fields: readonly string[] }>;
const listMemo: Memo = new WeakMap();
const objectMemo: Memo = new WeakMap();

function collect(
  set: SelectionSetNode | undefined,
  info: Info,
  visit: (field: FieldNode) => void,
  seen = new Set<string>(),
): void {
  for (const selection of set?.selections ?? []) {
    if (selection.kind === Kind.FIELD) visit(selection);
    else if (selection.kind === Kind.INLINE_FRAGMENT) collect(selection.selectionSet, info, visit, seen);
    else if (!seen.has(selection.name.value)) {
      seen.add(selection.name.value);
      collect(info.fragments[selection.name.value]?.selectionSet, info, visit, seen);
    }
  }
}

function memoized(memo: Memo, info: Info, walk: (names: Set<string>) => void): readonly string[] {
  const nodes = info.fieldNodes;
  const known = nodes[0] ? memo.get(nodes[0]) : undefined;
  if (known && known.nodes.length === nodes.length && known.nodes.every((node, i) => node === nodes[i]))
    return known.fields;
  const names = new Set<string>();
  walk(names);
  const fields = [...names].sort();
  if (nodes[0]) memo.set(nodes[0], { nodes: [...nodes], fields });
  return fields;
}

/** Sorted names of the fields selected under `list` of this field (empty when `list` is not selected). */
export function listFields(info: Info): readonly string[] {
  return memoized(listMemo, info, (names) => {
    for (const node of info.fieldNodes)
      collect(node.selectionSet, info, (field) => {
        if (field.name.value === 'list')
          collect(field.selectionSet, info, (item) => names.add(item.name.value));
      });
  });
}

/** Sorted names of the fields selected on this field's object (e.g. `currentVehicle { plate make }`). */
export function selectedFields(info: Info): readonly string[] {
  return memoized(objectMemo, info, (names) => {
    for (const node of info.fieldNodes)
      collect(node.selectionSet, info, (field) => names.add(field.name.value));
  });
}

/** The columns a page of `spec` selects for the fields selected under this field's `list`. */
export const listProjection = (spec: TableSpec, info: Info) => projectedFields(spec, listFields(info));

/** The columns a lookup in `spec` selects for the fields selected on this object field. */
export const objectProjection = (spec: TableSpec, info: Info) => projectedFields(spec, selectedFields(info));

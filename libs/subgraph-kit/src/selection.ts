/**
 * The fields a client selected under a paged field's `list`, for column projection
 * (libs/paging projection.ts). Fragments and inline fragments are followed; @skip/@include are
 * ignored, so the answer is a superset of what will run (never too few columns). Memoized on the
 * field's AST nodes, which Mercurius keeps for a cached document: one walk per document, not per
 * request.
 */
import { Kind, type FieldNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

type Info = Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>;

const memo = new WeakMap<FieldNode, { nodes: readonly FieldNode[]; fields: readonly string[] }>();

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

/** Sorted names of the fields selected under `list` of this field (empty when `list` is not selected). */
export function listFields(info: Info): readonly string[] {
  const nodes = info.fieldNodes;
  const known = nodes[0] ? memo.get(nodes[0]) : undefined;
  if (known && known.nodes.length === nodes.length && known.nodes.every((node, i) => node === nodes[i]))
    return known.fields;
  const names = new Set<string>();
  for (const node of nodes)
    collect(node.selectionSet, info, (field) => {
      if (field.name.value === 'list')
        collect(field.selectionSet, info, (item) => names.add(item.name.value));
    });
  const fields = [...names].sort();
  if (nodes[0]) memo.set(nodes[0], { nodes: [...nodes], fields });
  return fields;
}

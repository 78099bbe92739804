/**
 * What a schema declares about the work of its fields, read once from its SDL (a subgraph's type
 * definitions, or the composed supergraph the gateway loads):
 * - `@paged(default: D, max: M)` on every paged field: the page size used when `pageSize` is
 *   omitted and the largest one accepted. The subgraph kit enforces both, the paging library reads
 *   them, and the cost estimate multiplies a page's selection by D when no size is asked;
 * - `@cost(weight: W)` (Apollo Federation's demand-control directive) on a field whose work is not
 *   that of one row: plate recognition, statistics, geocoding. The field costs W instead of 1.
 *
 * The table is keyed by schema coordinate (`Type.field`).
 */
import { Kind, type ConstDirectiveNode, type DocumentNode, type FieldDefinitionNode } from 'graphql';

export interface FieldCost {
  /** `@paged(default:)`: the page size when the query gives none. */
  defaultPageSize?: number;
  /** `@paged(max:)`: the largest page size accepted. */
  maxPageSize?: number;
  /** `@cost(weight:)`: what the field itself costs (1 when not declared). */
  weight?: number;
}

export type FieldCosts = ReadonlyMap<string, FieldCost>;

export const PAGED_DIRECTIVE = 'paged';
export const COST_DIRECTIVE = 'cost';

const EMPTY: FieldCosts = new Map();

function intArgument(directive: ConstDirectiveNode, name: string): number | undefined {
  const value = directive.arguments?.find((arg) => arg.name.value === name)?.value;
  return value?.kind === Kind.INT ? Number.parseInt(value.value, 10) : undefined;
}

/** The declared cost of one field definition, or undefined when it declares nothing. */
function costOfField(field: FieldDefinitionNode): FieldCost | undefined {
  let cost: FieldCost | undefined;
  for (const directive of field.directives ?? []) {
    if (directive.name.value === PAGED_DIRECTIVE) {
      const defaultPageSize = intArgument(directive, 'default');
      const maxPageSize = intArgument(directive, 'max');
      cost = {
        ...cost,
        ...(defaultPageSize !== undefined ? { defaultPageSize } : {}),
        ...(maxPageSize !== undefined ? { maxPageSize } : {}),
      };
    } else if (directive.name.value === COST_DIRECTIVE) {
      const weight = intArgument(directive, 'weight');
      if (weight !== undefined) cost = { ...cost, weight };
    }
  }
  return cost;
}

const WITH_FIELDS = new Set<string>([
  Kind.OBJECT_TYPE_DEFINITION,
  Kind.OBJECT_TYPE_EXTENSION,
  Kind.INTERFACE_TYPE_DEFINITION,
  Kind.INTERFACE_TYPE_EXTENSION,
]);

/** Every field's declared cost in a schema document, by `Type.field`. */
export function fieldCostsOf(document: DocumentNode | undefined): FieldCosts {
  if (!document) return EMPTY;
  const costs = new Map<string, FieldCost>();
  for (const definition of document.definitions) {
    if (!WITH_FIELDS.has(definition.kind) || !('fields' in definition)) continue;
    const type = definition.name.value;
    for (const field of (definition.fields ?? []) as readonly FieldDefinitionNode[]) {
      const cost = costOfField(field);
      if (cost) costs.set(`${type}.${field.name.value}`, cost);
    }
  }
  return costs;
}

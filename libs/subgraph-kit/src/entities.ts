/**
 * `_entities(representations:)` checked before @apollo/subgraph resolves it. The gateway only
 * sends representations of this subgraph's entities with their keys; anything else (a type this
 * subgraph does not hold, a value that is not an object, a missing key field) is the caller's
 * mistake, and is BAD_USER_INPUT naming the first offending representation, where the library
 * would throw a plain error (INTERNAL_SERVER_ERROR) or answer a stub without its id.
 */
import { Kind, parse, type DocumentNode, type GraphQLSchema, type StringValueNode } from 'graphql';
import { badInput } from '@fleetgraph/paging';

/** Entity type name -> its @key field sets (top-level field names of each). */
export type EntityKeys = ReadonlyMap<string, ReadonlyArray<readonly string[]>>;

const topLevelFields = (fields: string): string[] => {
  const [operation] = parse(`{ ${fields} }`).definitions;
  if (operation?.kind !== Kind.OPERATION_DEFINITION) return [];
  return operation.selectionSet.selections.flatMap((s) => (s.kind === Kind.FIELD ? [s.name.value] : []));
};

/** The @key field sets of every object type (definitions and extensions) of the type definitions. */
export function entityKeys(typeDefs: DocumentNode): EntityKeys {
  const keys = new Map<string, string[][]>();
  for (const definition of typeDefs.definitions) {
    if (definition.kind !== Kind.OBJECT_TYPE_DEFINITION && definition.kind !== Kind.OBJECT_TYPE_EXTENSION)
      continue;
    for (const directive of definition.directives ?? []) {
      if (directive.name.value !== 'key') continue;
      const fields = directive.arguments?.find((a) => a.name.value === 'fields')?.value as
        StringValueNode | undefined;
      if (fields?.kind !== Kind.STRING) continue;
      const name = definition.name.value;
      keys.set(name, [...(keys.get(name) ?? []), topLevelFields(fields.value)]);
    }
  }
  return keys;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The first representation this subgraph cannot resolve, as BAD_USER_INPUT; nothing when all can. */
export function checkRepresentations(representations: unknown, keys: EntityKeys): void {
  const list = Array.isArray(representations) ? representations : [representations];
  list.forEach((representation, index) => {
    const refuse = (problem: string) =>
      badInput(`representations[${index}] ${problem}`, { argument: 'representations', index });
    if (!isObject(representation))
      throw refuse('is not an object with __typename and the key fields of an entity.');
    const typename = representation.__typename;
    const sets =
      typeof typename === 'string' && Object.hasOwn(representation, '__typename')
        ? keys.get(typename)
        : undefined;
    if (!sets)
      throw refuse(
        `has __typename ${JSON.stringify(typename ?? null)?.slice(0, 100)}, which is not an entity of this subgraph (${[...keys.keys()].join(', ')}).`,
      );
    if (!sets.some((set) => set.every((field) => representation[field] != null)))
      throw refuse(`lacks the key of ${typename}: ${sets.map((set) => set.join(' ')).join(' or ')}.`);
  });
}

/** Wraps the schema's `_entities` resolver with checkRepresentations (in place; returns the schema). */
export function guardEntities(schema: GraphQLSchema, typeDefs: DocumentNode): GraphQLSchema {
  const field = schema.getQueryType()?.getFields()._entities;
  const resolve = field?.resolve;
  if (!field || !resolve) return schema;
  const keys = entityKeys(typeDefs);
  field.resolve = (source, args, context, info) => {
    checkRepresentations((args as { representations?: unknown }).representations, keys);
    return resolve(source, args, context, info);
  };
  return schema;
}

/**
 * Argument values every subgraph refuses before execution, with BAD_USER_INPUT:
 * - a list of more than MAX_LIST_ITEMS items: one statement with a bind parameter per item
 *   (`where id in (...)`) fails past PostgreSQL's 65,535 parameters, and no field needs that many;
 * - a string containing U+0000: PostgreSQL text cannot hold it;
 * - `_entities(representations:)` with more than MAX_ENTITY_REPRESENTATIONS representations.
 *
 * Both the literals of the document (arguments, directive arguments, variable defaults) and the
 * request's values of the variables it declares are checked, at any depth (input objects, lists of
 * lists, the JSON of custom scalars such as `_Any`).
 */
import {
  GraphQLError,
  Kind,
  visit,
  type ArgumentNode,
  type DocumentNode,
  type FieldNode,
  type ValueNode,
} from 'graphql';

/** Most items a list argument (or a list inside one) may hold. */
export const MAX_LIST_ITEMS = 1000;

/**
 * Most representations an `_entities` call may carry. The gateway sends every entity of one fetch
 * in one call (deduplicated); a subgraph's request body is at most 1 MiB, which holds about 23,000
 * of the smallest representations (`{"__typename":"Device","id":"<15-digit IMEI>"}`), so no call
 * the gateway can deliver is refused, and the batched lookups stay far below PostgreSQL's 65,535
 * bind parameters.
 */
export const MAX_ENTITY_REPRESENTATIONS = 25_000;

type Where = { argument: string } | { variable: string };

interface Usage {
  /** Most items of the value's own list (lists inside it: MAX_LIST_ITEMS). */
  limit: number;
  /** How the value is named in messages: `${prefix}${path}${suffix}`, path from `root`. */
  prefix: string;
  root: string;
  suffix: string;
  where: Where;
}

const tooLong = (label: string, where: Where, items: number, limit: number) =>
  new GraphQLError(
    `${label} has ${items} items; a list may have at most ${limit}${limit === MAX_ENTITY_REPRESENTATIONS ? ' representations' : ' items'}.`,
    { extensions: { code: 'BAD_USER_INPUT', ...where, limit, measured: items } },
  );

const nulCharacter = (label: string, where: Where) =>
  new GraphQLError(`${label} contains the NUL character (\\u0000), which is not allowed in a string.`, {
    extensions: { code: 'BAD_USER_INPUT', ...where },
  });

const isEntitiesRepresentations = (field: FieldNode | undefined, argument: ArgumentNode) =>
  field?.name.value === '_entities' && argument.name.value === 'representations';

/** The first offending literal of a value node, or null. */
function checkLiteral(root: ValueNode, usage: Usage, variables: Map<string, number>): GraphQLError | null {
  const stack: Array<{ node: ValueNode; path: string; limit: number }> = [
    { node: root, path: usage.root, limit: usage.limit },
  ];
  const label = (path: string) => `${usage.prefix}${path}${usage.suffix}`;
  while (stack.length > 0) {
    const { node, path, limit } = stack.pop()!;
    switch (node.kind) {
      case Kind.STRING:
        if (node.value.includes('\u0000')) return nulCharacter(label(path), usage.where);
        break;
      case Kind.LIST:
        if (node.values.length > limit) return tooLong(label(path), usage.where, node.values.length, limit);
        node.values.forEach((value, i) =>
          stack.push({ node: value, path: `${path}[${i}]`, limit: MAX_LIST_ITEMS }),
        );
        break;
      case Kind.OBJECT:
        for (const field of node.fields) {
          stack.push({ node: field.value, path: `${path}.${field.name.value}`, limit: MAX_LIST_ITEMS });
        }
        break;
      case Kind.VARIABLE: {
        // The variable's value is checked against the limit of the place it is used in.
        const name = node.name.value;
        variables.set(name, Math.max(variables.get(name) ?? 0, limit));
        break;
      }
      default:
        break;
    }
  }
  return null;
}

interface DocumentCheck {
  /** The first offending literal, if any. */
  error: GraphQLError | null;
  /** Variables used in the document, with the list limit of the place they are used in. */
  variables: Map<string, number>;
}

/** Literal checks depend on the document only: kept per parsed document (Mercurius caches those). */
const documents = new WeakMap<DocumentNode, DocumentCheck>();

function checkDocument(document: DocumentNode): DocumentCheck {
  const known = documents.get(document);
  if (known) return known;
  const variables = new Map<string, number>();
  const defaults: Array<{ name: string; value: ValueNode }> = [];
  let error: GraphQLError | null = null;
  const fields: FieldNode[] = [];
  visit(document, {
    Field: {
      enter: (node) => {
        fields.push(node);
      },
      leave: () => {
        fields.pop();
      },
    },
    Directive: {
      enter: (node) => {
        for (const argument of node.arguments ?? []) {
          error ??= checkLiteral(
            argument.value,
            {
              limit: MAX_LIST_ITEMS,
              prefix: 'Argument ',
              root: argument.name.value,
              suffix: ` of @${node.name.value}`,
              where: { argument: argument.name.value },
            },
            variables,
          );
        }
        return false;
      },
    },
    Argument: (node) => {
      // Only field arguments reach here: directives are handled (and skipped) above.
      const field = fields.at(-1);
      error ??= checkLiteral(
        node.value,
        {
          limit: isEntitiesRepresentations(field, node) ? MAX_ENTITY_REPRESENTATIONS : MAX_LIST_ITEMS,
          prefix: 'Argument ',
          root: node.name.value,
          suffix: field ? ` of field ${field.name.value}` : '',
          where: { argument: node.name.value },
        },
        variables,
      );
      return false;
    },
    VariableDefinition: (node) => {
      if (node.defaultValue) defaults.push({ name: node.variable.name.value, value: node.defaultValue });
      return false;
    },
  });
  for (const { name, value } of defaults) {
    error ??= checkLiteral(
      value,
      {
        limit: variables.get(name) ?? MAX_LIST_ITEMS,
        prefix: 'The default value of ',
        root: `$${name}`,
        suffix: '',
        where: { variable: name },
      },
      new Map(),
    );
  }
  const result = { error, variables };
  documents.set(document, result);
  return result;
}

/** The first offending string or list in a variable's JSON value, or null. */
function checkVariable(name: string, root: unknown, limit: number): GraphQLError | null {
  const where = { variable: name };
  const stack: Array<{ value: unknown; path: string; limit: number }> = [
    { value: root, path: `Variable $${name}`, limit },
  ];
  while (stack.length > 0) {
    const { value, path, limit: max } = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return nulCharacter(path, where);
    } else if (Array.isArray(value)) {
      if (value.length > max) return tooLong(path, where, value.length, max);
      value.forEach((item, i) => stack.push({ value: item, path: `${path}[${i}]`, limit: MAX_LIST_ITEMS }));
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        if (key.includes('\u0000')) return nulCharacter(`${path} (a key)`, where);
        stack.push({ value: item, path: `${path}.${key}`, limit: MAX_LIST_ITEMS });
      }
    }
  }
  return null;
}

/**
 * The first argument value of a request that exceeds the limits above, as a BAD_USER_INPUT
 * GraphQLError (extensions: `argument` or `variable`, and `limit` / `measured` for a list), or
 * null when every value is acceptable.
 */
export function checkArgumentValues(
  document: DocumentNode,
  variables: Record<string, unknown> | null | undefined,
): GraphQLError | null {
  const { error, variables: used } = checkDocument(document);
  if (error) return error;
  if (!variables) return null;
  for (const [name, limit] of used) {
    if (!Object.prototype.hasOwnProperty.call(variables, name)) continue;
    const found = checkVariable(name, variables[name], limit);
    if (found) return found;
  }
  return null;
}

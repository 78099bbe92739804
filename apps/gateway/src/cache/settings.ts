/**
 * The `cache` root field as the response cache reads it: found among the operation's root
 * selections (also through fragments), its arguments coerced with the request's variables and
 * checked. Pure functions; the plugin acts on the result.
 */
import {
  GraphQLError,
  Kind,
  getVariableValues,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { getArgumentValues } from 'graphql/execution/values.js';

export type CacheScope = 'LOGIN' | 'ACCOUNT' | 'NONE';

/** What a login's responses are cached with. */
export interface CacheSettings {
  scope: CacheScope;
  ttl: number;
  extendTtl: boolean;
}

/** The arguments of one `cache` field, defaults applied. */
export interface CacheCommand extends CacheSettings {
  saveSettings: boolean;
  softFlush: boolean;
  flush: boolean;
}

export const CACHE_FIELD = 'cache';
export const MIN_TTL = 1;
export const MAX_TTL = 3600;

function badInput(message: string, extensions: Record<string, unknown> = {}): GraphQLError {
  return new GraphQLError(message, {
    extensions: { code: 'BAD_USER_INPUT', ...extensions, http: { status: 400 } },
  });
}

/** Root fields named `cache`, through inline fragments and fragment spreads. */
function cacheFields(
  selectionSet: SelectionSetNode,
  fragments: Map<string, FragmentDefinitionNode>,
  seen = new Set<string>(),
  out: FieldNode[] = [],
): FieldNode[] {
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      if (selection.name.value === CACHE_FIELD) out.push(selection);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      cacheFields(selection.selectionSet, fragments, seen, out);
    } else {
      const name = selection.name.value;
      const fragment = fragments.get(name);
      if (fragment && !seen.has(name)) {
        seen.add(name);
        cacheFields(fragment.selectionSet, fragments, seen, out);
      }
    }
  }
  return out;
}

/**
 * The operation's `cache` command, or undefined when it has none. Throws BAD_USER_INPUT for
 * more than one `cache` field or a ttl outside MIN_TTL..MAX_TTL. Expects a validated operation.
 */
export function readCacheCommand(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown> | undefined,
): CacheCommand | undefined {
  if (operation.operation !== 'query') return undefined;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions)
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  const fields = cacheFields(operation.selectionSet, fragments);
  if (fields.length === 0) return undefined;
  if (fields.length > 1)
    throw badInput('Send at most one `cache` field per request.', { argumentName: 'cache' });
  const definition = schema.getQueryType()?.getFields()[CACHE_FIELD];
  if (!definition) return undefined;
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables ?? {});
  if (coerced.errors) throw coerced.errors[0]!;
  const args = getArgumentValues(definition, fields[0]!, coerced.coerced);
  const ttl = args.ttl as number | null;
  if (ttl === null || ttl < MIN_TTL || ttl > MAX_TTL)
    throw badInput(`ttl must be between ${MIN_TTL} and ${MAX_TTL} seconds; got ${ttl}.`, {
      argumentName: 'ttl',
    });
  return {
    scope: ((args.scope as CacheScope | null) ?? 'LOGIN') as CacheScope,
    ttl,
    extendTtl: (args.extendTtl as boolean | null) ?? false,
    saveSettings: (args.saveSettings as boolean | null) ?? true,
    softFlush: (args.softFlush as boolean | null) ?? false,
    flush: (args.flush as boolean | null) ?? false,
  };
}

/** Canonical JSON (sorted object keys) so that equal variables give equal cache keys. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const record = value as Record<string, unknown>;
  return `{${Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`)
    .join(',')}}`;
}

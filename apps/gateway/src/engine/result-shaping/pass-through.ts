/**
 * Answers passed through: when a query's plan is one fetch from one subgraph that asks exactly
 * what the client asked, the subgraph's `data` is already the answer, key for key. The gateway then
 * checks it against the operation instead of rebuilding it, and sends the subgraph's text as it
 * came (StoredJson), without shaping it into new objects nor serialising it again, which is most of
 * what a one-subgraph page costs the gateway.
 *
 * Nothing is trusted that shaping would have checked. A plan passes through only when:
 * - it is a single query fetch, without entity representations or rewrites;
 * - the client's operation uses no fragments and no directives in its selections, and the fetch's
 *   selection set prints exactly as the client's (the planner added no `__typename`, alias or
 *   field, and kept the order);
 * and an answer only when it is exactly `{"data":{...}}` and every object in it has exactly the
 * selected keys in the selected order, with leaf values valid for their types in the API schema
 * (an enum value the API schema hides fails), no null where the type is non-null, and
 * `__typename` equal to its object's type. Anything else (errors, extensions, a missing or extra
 * key, a wrong value) is shaped as before, which answers it the way Apollo does. So a passed
 * answer is the JSON value shaping would have produced; only the text's formatting of the same
 * values is the subgraph's.
 */
import {
  getNamedType,
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLID,
  GraphQLInt,
  GraphQLString,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  parse,
  print,
  type DocumentNode,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { dataText, StoredJson } from '../../cache/stored-json';

/** The part of a query plan this module reads (@apollo/query-planner's QueryPlan). */
export interface PlanLike {
  node?: {
    kind: string;
    operation?: string;
    operationKind?: string;
    operationDocumentNode?: DocumentNode;
    requires?: unknown;
    inputRewrites?: readonly unknown[];
    outputRewrites?: readonly unknown[];
    contextRewrites?: readonly unknown[];
  };
}

/** Checks a subgraph's `data` against the operation; true when it is exactly the answer. */
export type AnswerCheck = (data: Record<string, unknown>) => boolean;

const checks = new WeakMap<object, AnswerCheck | null>();

/**
 * The check of a plan's answers when the plan can pass its subgraph's answer through, else
 * undefined. Memoized per plan (Apollo keeps one plan object per operation in its plan store).
 */
export function passThroughCheck(
  plan: PlanLike,
  operation: OperationDefinitionNode,
  schema: GraphQLSchema,
): AnswerCheck | undefined {
  let check = checks.get(plan);
  if (check === undefined) {
    check = asksWhatClientAsks(plan, operation) ? compileCheck(schema, operation) : null;
    checks.set(plan, check);
  }
  return check ?? undefined;
}

function asksWhatClientAsks(plan: PlanLike, operation: OperationDefinitionNode): boolean {
  const fetch = plan.node;
  if (fetch?.kind !== 'Fetch' || fetch.operationKind !== 'query' || operation.operation !== 'query')
    return false;
  if (fetch.requires || fetch.inputRewrites?.length || fetch.outputRewrites?.length) return false;
  if (fetch.contextRewrites?.length || !fetch.operation) return false;
  if (!plainSelections(operation.selectionSet)) return false;
  const sent = (fetch.operationDocumentNode ?? parse(fetch.operation, { noLocation: true })).definitions;
  if (sent.length !== 1 || sent[0]!.kind !== Kind.OPERATION_DEFINITION) return false;
  return print(sent[0]!.selectionSet) === print(operation.selectionSet);
}

/** Only fields, without directives, all the way down. */
function plainSelections(selectionSet: SelectionSetNode): boolean {
  return selectionSet.selections.every(
    (selection) =>
      selection.kind === Kind.FIELD &&
      !selection.directives?.length &&
      (!selection.selectionSet || plainSelections(selection.selectionSet)),
  );
}

/** How one selected field's value is checked. */
interface FieldCheck {
  readonly key: string;
  readonly check: (value: unknown) => boolean;
}

function compileCheck(schema: GraphQLSchema, operation: OperationDefinitionNode): AnswerCheck | null {
  const root = schema.getQueryType();
  if (!root) return null;
  const fields = compileFields(root, operation.selectionSet);
  return fields ? (data) => objectMatches(data, fields) : null;
}

function compileFields(type: GraphQLObjectType, selectionSet: SelectionSetNode): FieldCheck[] | null {
  const checks: FieldCheck[] = [];
  const definitions = type.getFields();
  for (const selection of selectionSet.selections) {
    if (selection.kind !== Kind.FIELD) return null;
    const key = selection.alias?.value ?? selection.name.value;
    if (selection.name.value === '__typename') {
      checks.push({ key, check: (value) => value === type.name });
      continue;
    }
    const definition = definitions[selection.name.value];
    if (!definition) return null;
    const check = compileValue(definition.type, selection.selectionSet);
    if (!check) return null;
    checks.push({ key, check });
  }
  return checks;
}

function compileValue(
  type: GraphQLOutputType,
  selectionSet: SelectionSetNode | undefined,
): ((value: unknown) => boolean) | null {
  if (isNonNullType(type)) {
    const inner = compileValue(type.ofType, selectionSet);
    return inner && ((value) => value !== null && inner(value));
  }
  if (isListType(type)) {
    const item = compileValue(type.ofType, selectionSet);
    return item && ((value) => value === null || (Array.isArray(value) && value.every(item)));
  }
  const named = getNamedType(type);
  if (isObjectType(named)) {
    if (!selectionSet) return null;
    const fields = compileFields(named, selectionSet);
    return (
      fields &&
      ((value) =>
        value === null ||
        (typeof value === 'object' && !Array.isArray(value) && objectMatches(value as object, fields)))
    );
  }
  if (isEnumType(named)) {
    const values = new Set(named.getValues().map((value) => value.name));
    return (value) => value === null || (typeof value === 'string' && values.has(value));
  }
  if (isScalarType(named)) return leafCheck(named.name);
  return null; // interfaces and unions: their answers are shaped
}

const INT_MIN = -(2 ** 31);
const INT_MAX = 2 ** 31 - 1;

/** What shaping accepts as it is: built-in scalars by their JSON type, custom scalars as sent. */
function leafCheck(name: string): (value: unknown) => boolean {
  switch (name) {
    case GraphQLString.name:
    case GraphQLID.name:
      return (value) => value === null || typeof value === 'string';
    case GraphQLBoolean.name:
      return (value) => value === null || typeof value === 'boolean';
    case GraphQLFloat.name:
      return (value) => value === null || (typeof value === 'number' && Number.isFinite(value));
    case GraphQLInt.name:
      return (value) =>
        value === null ||
        (Number.isInteger(value) && (value as number) >= INT_MIN && (value as number) <= INT_MAX);
    default:
      return () => true;
  }
}

/** Exactly the selected keys, in order, each with a valid value. */
function objectMatches(object: object, fields: readonly FieldCheck[]): boolean {
  const record = object as Record<string, unknown>;
  let index = 0;
  for (const key in record) {
    const field = fields[index++];
    if (!field || field.key !== key || !field.check(record[key])) return false;
  }
  return index === fields.length;
}

/** The check a request's answer gets (set when its plan was resolved). */
const expected = new WeakMap<object, AnswerCheck>();

/** Marks a request (its GraphQL context) as one whose single fetch may pass through. */
export function expectPassThrough(context: object, check: AnswerCheck): void {
  expected.set(context, check);
}

/** The answers held for their request's shaping, by their `data`'s first value (see passedThrough). */
const held = new WeakMap<object, { data: Record<string, unknown>; text: string }>();

/**
 * Holds a subgraph answer (parsed from `text`) for shaping to pass through, when its request
 * expects one and the answer is exactly what the client asked. True when held.
 */
export function holdForPassThrough(context: object, answer: object, text: string | undefined): boolean {
  const check = expected.get(context);
  const dataOnly = check && text !== undefined ? dataText(text) : undefined;
  if (!check || dataOnly === undefined) return false;
  const data = (answer as { data?: unknown }).data;
  if (!data || typeof data !== 'object' || Array.isArray(data)) return false;
  let keys = 0;
  for (const _key in answer) keys++;
  if (keys !== 1) return false;
  const first = firstValue(data);
  if (!first || typeof first !== 'object') return false;
  if (!check(data as Record<string, unknown>)) return false;
  held.set(first, { data: data as Record<string, unknown>, text: dataOnly });
  return true;
}

/**
 * The answer shaping would build from `input`, as the subgraph's text, when `input` holds exactly
 * a held answer's fields (Apollo merges a root fetch's data into its own result object, keeping
 * each field's value): undefined otherwise.
 */
export function passedThrough(input: Record<string, unknown>): StoredJson | undefined {
  const first = firstValue(input);
  const answer = first && typeof first === 'object' ? held.get(first) : undefined;
  if (!answer) return undefined;
  let keys = 0;
  for (const key in input) {
    keys++;
    if (input[key] !== answer.data[key]) return undefined;
  }
  for (const _key in answer.data) keys--;
  return keys === 0 ? new StoredJson(answer.text) : undefined;
}

function firstValue(object: object): unknown {
  for (const key in object) return (object as Record<string, unknown>)[key];
  return undefined;
}

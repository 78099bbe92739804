/**
 * The gateway's result shaping (@apollo/gateway's `computeResponse`, resultShaping.ts, 2.14), with
 * the work per selection done once per request instead of once per object.
 *
 * After the subgraph fetches, Apollo's executor walks the operation over the merged subgraph data
 * to build the client's answer: it keeps the client's fields in its order, resolves `__typename`
 * and fragments, nulls invalid leaves and bubbles nulls up to the nearest nullable field. Apollo
 * interprets the operation for every object of the answer: the `@skip` / `@include` lookup, the
 * field's definition and response name, the type tests through federation-internals' exported
 * getters, two result objects per value: on a page of many objects, a large share of the
 * gateway's CPU.
 *
 * Here each selection set is compiled on first use in a request (the directives evaluated with the
 * request's variables, the field's response name, its type's wrappers and leaf check) and the walk
 * over the data reads the compiled form. The algorithm, the order of fields in the answer, the
 * merging of repeated response names, the errors (code INVALID_GRAPHQL, message and path) and the
 * assertions are Apollo's, line for line; compiled-shaping.test.ts checks the two give the same
 * answer and errors on the same operations and data. install.ts puts it in Apollo's place.
 * A single fetch's answer that pass-through.ts checked is answered as its text, not walked.
 */
import type { GraphQLError } from 'graphql';
import {
  assert,
  ERRORS,
  isCompositeType,
  isCustomScalarType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isSubtype,
  isValidLeafValue,
  typenameFieldName,
  Variable,
  type CompositeType,
  type EnumType,
  type ScalarType,
  type Directive,
  type FieldSelection,
  type FragmentSelection,
  type Operation,
  type OutputType,
  type Schema,
  type Selection,
  type SelectionSet,
  type Type,
} from '@apollo/federation-internals';
import { passedThrough } from './pass-through';

type Data = Record<string, unknown>;
type Path = (string | number)[];

export interface ComputeResponseArgs {
  operation: Operation;
  variables?: Record<string, unknown>;
  input: Data | null | undefined;
  introspectionHandling: (selection: FieldSelection) => unknown;
}

/** A field of a compiled selection set (one `FieldSelection` that the directives keep). */
interface CompiledField {
  readonly kind: 'field';
  readonly selection: FieldSelection;
  readonly responseName: string;
  readonly isTypename: boolean;
  readonly isIntrospection: boolean;
  readonly type: OutputType;
  readonly selectionSet: SelectionSet | undefined;
}

/** A fragment (inline or spread) that the directives keep; its type test memoized per type. */
interface CompiledFragment {
  readonly kind: 'fragment';
  readonly typeCondition: CompositeType | undefined;
  readonly selectionSet: SelectionSet;
  readonly applies: Map<unknown, boolean>;
}

type Compiled = CompiledField | CompiledFragment;

interface Parameters {
  readonly schema: Schema;
  readonly variables: Record<string, unknown>;
  readonly errors: GraphQLError[];
  readonly introspectionHandling: (selection: FieldSelection) => unknown;
  /** Selection sets compiled in this request (the variables decide what `@skip` keeps). */
  readonly compiled: Map<SelectionSet, Compiled[]>;
}

const OK = 0;
const NULL_BUBBLE_UP = 1;

/**
 * The flags of the last `updateOutputValue` (Apollo returns them in an object per value); read
 * by the caller right after the call, before any other call can change them.
 */
let lastInvalid = false;
let lastHasErrors = false;

export function computeResponse({
  operation,
  variables,
  input,
  introspectionHandling,
}: ComputeResponseArgs): {
  data: Data | null | undefined;
  errors: GraphQLError[];
} {
  if (!input) return { data: input, errors: [] };
  // A single fetch's answer already checked against the operation (pass-through.ts): its text.
  const passed = passedThrough(input);
  if (passed) return { data: passed as never, errors: [] };
  const parameters: Parameters = {
    schema: operation.schema(),
    variables: {
      __proto__: null,
      ...operation.collectDefaultedVariableValues(),
      ...variables,
    } as Record<string, unknown>,
    errors: [],
    introspectionHandling,
    compiled: new Map(),
  };
  const data = Object.create(null) as Data;
  const rootType = parameters.schema.schemaDefinition.rootType(operation.rootKind);
  assert(rootType, () => `No root type for ${operation.rootKind}`);
  const res = applySelectionSet(input, operation.selectionSet, data, parameters, [], rootType);
  return { data: res === NULL_BUBBLE_UP ? null : data, errors: parameters.errors };
}

/** Apollo's `shouldSkip`: `@skip(if: true)` or `@include(if: false)` with this request's variables. */
function shouldSkip(selection: Selection, parameters: Parameters): boolean {
  const element = selection.element;
  const skip = element.appliedDirectivesOf(parameters.schema.skipDirective())[0];
  const include = element.appliedDirectivesOf(parameters.schema.includeDirective())[0];
  return (
    (skip !== undefined && ifValue(skip, parameters.variables)) ||
    (include !== undefined && !ifValue(include, parameters.variables))
  );
}

function ifValue(
  directive: Directive<any, { if: boolean | Variable }>,
  variables: Record<string, unknown>,
): boolean {
  const ifArg = directive.arguments().if;
  if (ifArg instanceof Variable) {
    const value = variables[ifArg.name];
    assert(
      value !== undefined && typeof value === 'boolean',
      () => `Unexpected value ${String(value)} for variable ${String(ifArg)} of ${String(directive)}`,
    );
    return value;
  }
  return ifArg;
}

function compile(selectionSet: SelectionSet, parameters: Parameters): Compiled[] {
  let compiled = parameters.compiled.get(selectionSet);
  if (compiled) return compiled;
  compiled = [];
  for (const selection of selectionSet.selections()) {
    if (shouldSkip(selection, parameters)) continue;
    compiled.push(selection.kind === 'FieldSelection' ? compileField(selection) : compileFragment(selection));
  }
  parameters.compiled.set(selectionSet, compiled);
  return compiled;
}

function compileField(selection: FieldSelection): CompiledField {
  const field = selection.element;
  return {
    kind: 'field',
    selection,
    responseName: field.responseName(),
    isTypename: field.name === typenameFieldName,
    isIntrospection: field.definition.isSchemaIntrospectionField(),
    type: field.definition.type!,
    selectionSet: selection.selectionSet,
  };
}

function compileFragment(selection: FragmentSelection): CompiledFragment {
  return {
    kind: 'fragment',
    typeCondition: selection.element.typeCondition,
    selectionSet: selection.selectionSet,
    applies: new Map(),
  };
}

function typeConditionApplies(
  fragment: CompiledFragment,
  schema: Schema,
  typename: string | undefined,
  parentType: CompositeType,
): boolean {
  const condition = fragment.typeCondition;
  if (!condition) return true;
  const key = typename || parentType;
  let applies = fragment.applies.get(key);
  if (applies === undefined) {
    if (typename) {
      const type = schema.type(typename);
      applies = !!type && isSubtype(condition, type);
    } else {
      applies = isSubtype(condition, parentType);
    }
    fragment.applies.set(key, applies);
  }
  return applies;
}

const hasOwn = Object.prototype.hasOwnProperty;

function applySelectionSet(
  input: Data,
  selectionSet: SelectionSet,
  output: Data,
  parameters: Parameters,
  path: Path,
  parentType: CompositeType,
): number {
  for (const selection of compile(selectionSet, parameters)) {
    if (selection.kind === 'field') {
      const responseName = selection.responseName;
      const outputValue = output[responseName];
      if (selection.isIntrospection) {
        if (outputValue === undefined)
          output[responseName] = parameters.introspectionHandling(selection.selection);
        continue;
      }
      let inputValue = (hasOwn.call(input, responseName) ? input[responseName] : undefined) ?? null;
      if (selection.isTypename) {
        if (outputValue === undefined) {
          if (inputValue === null && responseName !== typenameFieldName) {
            inputValue = input[typenameFieldName] ?? null;
          }
          const type =
            inputValue !== null && typeof inputValue === 'string'
              ? (parameters.schema.type(inputValue) ?? parentType)
              : parentType;
          if (!isObjectType(type)) return NULL_BUBBLE_UP;
          output[responseName] = type.name;
        }
        continue;
      }
      path.push(responseName);
      const updated = updateOutputValue(
        outputValue,
        selection.type,
        inputValue,
        selection.selectionSet,
        path,
        parameters,
        parentType,
      );
      const isInvalid = lastInvalid;
      output[responseName] = updated;
      path.pop();
      if (isInvalid) return NULL_BUBBLE_UP;
    } else {
      const typename = input[typenameFieldName];
      assert(
        !typename || typeof typename === 'string',
        () => `Got unexpected value for __typename: ${String(typename)}`,
      );
      if (typeConditionApplies(selection, parameters.schema, typename as string | undefined, parentType)) {
        const res = applySelectionSet(
          input,
          selection.selectionSet,
          output,
          parameters,
          path,
          selection.typeCondition ?? parentType,
        );
        if (res === NULL_BUBBLE_UP) return NULL_BUBBLE_UP;
      }
    }
  }
  return OK;
}

function pathLastElementDescription(path: Path, currentType: Type, parentType: CompositeType): string {
  const element = path[path.length - 1];
  assert(element !== undefined, 'Should not have been called on an empty path');
  return typeof element === 'string'
    ? `field ${String(parentType)}.${element}`
    : `array element of type ${String(currentType)} at index ${element}`;
}

/** Sets the flags and returns the value: Apollo's `{ updated, isInvalid, hasErrors }`. */
function result(updated: unknown, isInvalid: boolean, hasErrors: boolean): unknown {
  lastInvalid = isInvalid;
  lastHasErrors = hasErrors;
  return updated;
}

function updateOutputValue(
  outputValue: unknown,
  type: Type,
  inputValue: unknown,
  selectionSet: SelectionSet | undefined,
  path: Path,
  parameters: Parameters,
  parentType: CompositeType,
): unknown {
  assert(inputValue !== undefined, 'Should not pass undefined for `inputValue` to this method');
  if (outputValue === null || (outputValue !== undefined && !selectionSet))
    return result(outputValue, false, false);
  if (isNonNullType(type)) {
    const updated = updateOutputValue(
      outputValue,
      type.ofType,
      inputValue,
      selectionSet,
      path,
      parameters,
      parentType,
    );
    if (updated === null) {
      if (!lastHasErrors) {
        parameters.errors.push(
          ERRORS.INVALID_GRAPHQL.err(
            `Cannot return null for non-nullable ${pathLastElementDescription(path, type.ofType, parentType)}.`,
            { path: Array.from(path) },
          ),
        );
      }
      return result(updated, true, true);
    }
    return result(updated, false, false);
  }
  if (inputValue === null) return result(null, false, false);
  if (isListType(type))
    return updateList(outputValue, type.ofType, inputValue, selectionSet, path, parameters, parentType, type);
  if (isCompositeType(type))
    return updateObject(outputValue, type, inputValue, selectionSet, path, parameters, parentType);
  assert(
    outputValue === undefined,
    () => `Excepted output to be undefined but got ${String(type)} for type ${String(type)}`,
  );
  const isValidValue = isValidLeaf(parameters.schema, inputValue, type);
  if (!isValidValue) {
    parameters.errors.push(
      ERRORS.INVALID_GRAPHQL.err(
        `Invalid value found for ${pathLastElementDescription(path, type, parentType)}.`,
        {
          path: Array.from(path),
        },
      ),
    );
  }
  return result(isValidValue ? inputValue : null, false, !isValidValue);
}

function updateList(
  outputValue: unknown,
  itemType: Type,
  inputValue: unknown,
  selectionSet: SelectionSet | undefined,
  path: Path,
  parameters: Parameters,
  parentType: CompositeType,
  type: Type,
): unknown {
  assert(
    Array.isArray(inputValue),
    () => `Invalid non-list value ${String(inputValue)} returned by subgraph for list type ${String(type)}`,
  );
  assert(
    outputValue === undefined || Array.isArray(outputValue),
    () => `Invalid non-list value ${String(outputValue)} returned by subgraph for list type ${String(type)}`,
  );
  const length = inputValue.length;
  const existing = outputValue as unknown[] | undefined;
  assert(
    existing === undefined || existing.length === length,
    () => `[${String(inputValue)}].length (${length}) !== [${String(existing)}].length (${existing!.length})`,
  );
  const updated = new Array<unknown>(length);
  let shouldNullify = false;
  let hasErrors = false;
  for (let index = 0; index < length; index++) {
    path.push(index);
    updated[index] = updateOutputValue(
      existing === undefined ? undefined : existing[index],
      itemType,
      inputValue[index],
      selectionSet,
      path,
      parameters,
      parentType,
    );
    path.pop();
    shouldNullify ||= lastInvalid;
    hasErrors ||= lastHasErrors;
  }
  return result(shouldNullify ? null : updated, false, hasErrors);
}

function updateObject(
  outputValue: unknown,
  type: CompositeType,
  inputValue: unknown,
  selectionSet: SelectionSet | undefined,
  path: Path,
  parameters: Parameters,
  parentType: CompositeType,
): unknown {
  assert(selectionSet, () => `Invalid empty selection set for composite type ${String(type)}`);
  assert(
    typeof inputValue === 'object',
    () =>
      `Invalid non-object value ${String(inputValue)} returned by subgraph for composite type ${String(type)}`,
  );
  assert(
    outputValue === undefined || typeof outputValue === 'object',
    () =>
      `Invalid non-object value ${String(inputValue)} returned by subgraph for composite type ${String(type)}`,
  );
  const input = inputValue as Data;
  const inputTypename = input[typenameFieldName];
  assert(
    inputTypename === undefined || typeof inputTypename === 'string',
    () => `Invalid non-string value ${String(inputTypename)} for __typename at ${String(path)}`,
  );
  let objType = type;
  if (inputTypename) {
    const typenameType = parameters.schema.type(inputTypename);
    if (!typenameType || !isCompositeType(typenameType)) {
      parameters.errors.push(
        ERRORS.INVALID_GRAPHQL.err(
          `Invalid __typename found for object at ${pathLastElementDescription(path, type, parentType)}.`,
          { path: Array.from(path) },
        ),
      );
      return result(null, false, true);
    }
    objType = typenameType;
  }
  const outputValueObject = outputValue === undefined ? (Object.create(null) as Data) : (outputValue as Data);
  const res = applySelectionSet(input, selectionSet, outputValueObject, parameters, path, objType);
  const hasErrors = res === NULL_BUBBLE_UP;
  return result(hasErrors ? null : outputValueObject, false, hasErrors);
}

/**
 * Apollo's `isValidLeafValue`, answering the common valid cases first: any value of a custom
 * scalar, a string of String or ID, a finite number of Float, a boolean of Boolean. Everything
 * else (and every rejection) is federation-internals' own check.
 */
function isValidLeaf(schema: Schema, value: unknown, type: Type): boolean {
  if (isCustomScalarType(type)) return true;
  if (typeof value === 'string') {
    if (type === schema.stringType() || type === schema.idType()) return true;
  } else if (typeof value === 'number') {
    if (type === schema.floatType() && Number.isFinite(value)) return true;
  } else if (typeof value === 'boolean') {
    if (type === schema.booleanType()) return true;
  }
  if (isEnumType(type) && typeof value === 'string') return type.value(value) !== undefined;
  return isValidLeafValue(schema, value, type as ScalarType | EnumType);
}

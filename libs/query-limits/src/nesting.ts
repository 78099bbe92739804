/**
 * How deeply a request nests, measured before anything recursive reads it. graphql-js parses
 * selection sets, list and object literals by recursion, one set of stack frames per level: a
 * document nested a few thousand levels deep (a list literal `[[[[...]]]]` fits in the token
 * limit) breaks the parser's stack with "Maximum call stack size exceeded". So every server
 * measures the nesting of the query text and of the variables' JSON first, by a plain scan
 * (nothing recursive), and refuses anything deeper than `maxNesting` as QUERY_TOO_COMPLEX.
 *
 * Nesting counts every `{`, `[` and `(` still open: a selection set, an argument list, a list or
 * object literal, outside strings, block strings and comments. The default bound
 * (DEFAULT_QUERY_LIMITS.maxNesting) leaves room for the deepest selection the depth limit allows
 * with arguments holding nested input objects at its leaves.
 */
import type { GraphQLError } from 'graphql';
import { queryTooComplex } from './limits';

const OPEN = new Set([0x7b, 0x5b, 0x28]); // { [ (
const CLOSE = new Set([0x7d, 0x5d, 0x29]); // } ] )
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const HASH = 0x23;
const NEWLINE = 0x0a;
const RETURN = 0x0d;

/** The index of the last character of the block string opening at `start` (`"""`). */
function endOfBlockString(source: string, start: number): number {
  for (let i = start + 3; i < source.length; i++) {
    if (source.charCodeAt(i) === BACKSLASH && source.startsWith('"""', i + 1)) i += 3;
    else if (source.startsWith('"""', i)) return i + 2;
  }
  return source.length;
}

/** The index of the last character of the string opening at `start` (a line at most). */
function endOfString(source: string, start: number): number {
  for (let i = start + 1; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c === BACKSLASH) i++;
    else if (c === QUOTE || c === NEWLINE || c === RETURN) return i;
  }
  return source.length;
}

function endOfComment(source: string, start: number): number {
  for (let i = start + 1; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c === NEWLINE || c === RETURN) return i;
  }
  return source.length;
}

/** The deepest nesting of `{`, `[` and `(` in a GraphQL document's text. */
export function sourceNesting(source: string): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (OPEN.has(c)) deepest = Math.max(deepest, ++depth);
    else if (CLOSE.has(c)) depth = Math.max(0, depth - 1);
    else if (c === HASH) i = endOfComment(source, i);
    else if (c === QUOTE)
      i = source.startsWith('"""', i) ? endOfBlockString(source, i) : endOfString(source, i);
  }
  return deepest;
}

/** The deepest nesting of arrays and objects in a JSON value (a scalar is 0), without recursion. */
export function valueNesting(value: unknown): number {
  let deepest = 0;
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (next.value === null || typeof next.value !== 'object') continue;
    const depth = next.depth + 1;
    deepest = Math.max(deepest, depth);
    for (const item of Array.isArray(next.value) ? next.value : Object.values(next.value))
      if (item !== null && typeof item === 'object') stack.push({ value: item, depth });
  }
  return deepest;
}

/** QUERY_TOO_COMPLEX (rule `nesting`) when the query text nests deeper than `maxNesting`. */
export function checkSourceNesting(source: string, maxNesting: number): GraphQLError | undefined {
  const measured = sourceNesting(source);
  return measured > maxNesting ? queryTooComplex('nesting', maxNesting, measured) : undefined;
}

/** QUERY_TOO_COMPLEX (rule `nesting`, naming the variable) for a variable's JSON nested too deeply. */
export function checkVariablesNesting(variables: unknown, maxNesting: number): GraphQLError | undefined {
  if (variables === null || typeof variables !== 'object' || Array.isArray(variables)) return undefined;
  for (const [name, value] of Object.entries(variables)) {
    const measured = valueNesting(value);
    if (measured > maxNesting) return queryTooComplex('nesting', maxNesting, measured, { variable: name });
  }
  return undefined;
}

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse } from 'graphql';
import { checkSourceNesting, checkVariablesNesting, sourceNesting, valueNesting } from './nesting';

const deepList = (levels: number) => `{ devices(ids: ${'['.repeat(levels)}${']'.repeat(levels)}) { count } }`;

test('the nesting of a document counts selections, arguments and literals', () => {
  assert.equal(sourceNesting('{ account { id } }'), 2);
  assert.equal(sourceNesting('{ devices(ids: ["a"]) { list { id } } }'), 3);
  assert.equal(sourceNesting('query($a: [ID!]) { x(f: { a: [{ b: 1 }] }) }'), 5);
  assert.equal(sourceNesting(deepList(2400)), 2402);
});

test('brackets inside strings, block strings and comments do not count', () => {
  assert.equal(sourceNesting('{ a(s: "[[[{{{((") }'), 2);
  assert.equal(sourceNesting('{ a(s: "esc \\" [[[") }'), 2);
  assert.equal(sourceNesting('{ a(s: """ [[[ \\""" {{{ """) }'), 2);
  assert.equal(sourceNesting('{ a # [[[[[[\n b }'), 1);
  // An unterminated string ends at its line, as the lexer reads it.
  assert.equal(sourceNesting('{ a(s: "[[[\n) }'), 2);
});

test('a list literal 2,400 deep is refused before parsing; the same text breaks the parser', () => {
  const error = checkSourceNesting(deepList(2400), 64);
  assert.deepEqual(error?.extensions, {
    code: 'QUERY_TOO_COMPLEX',
    rule: 'nesting',
    limit: 64,
    measured: 2402,
    http: { status: 400 },
  });
  assert.throws(() => parse(deepList(20_000)), /Maximum call stack size exceeded/);
  assert.equal(checkSourceNesting(deepList(62), 64), undefined);
});

test('variables nested deeper than the bound are refused, naming the variable', () => {
  let deep: unknown = 1;
  for (let i = 0; i < 100_000; i++) deep = [deep];
  assert.equal(valueNesting(deep), 100_000);
  assert.equal(valueNesting({ a: [{ b: 'x' }], c: 2 }), 3);
  assert.equal(valueNesting('scalar'), 0);
  const error = checkVariablesNesting({ ok: [1, 2], r: deep }, 64);
  assert.equal(error?.extensions.rule, 'nesting');
  assert.equal(error?.extensions.variable, 'r');
  assert.match(error!.message, /^Variable \$r nesting is 100000, over the maximum of 64/);
  assert.equal(checkVariablesNesting({ ok: [[1]] }, 64), undefined);
  assert.equal(checkVariablesNesting(undefined, 64), undefined);
});

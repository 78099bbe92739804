import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  Kind,
  parse,
  type FieldNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
} from 'graphql';
import { listFields, selectedFields } from './selection';

function infoOf(source: string) {
  const document = parse(source);
  const operation = document.definitions.find(
    (d) => d.kind === Kind.OPERATION_DEFINITION,
  ) as OperationDefinitionNode;
  const fragments = Object.fromEntries(
    document.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((d) => [d.name.value, d]),
  );
  const fieldNodes = operation.selectionSet.selections.filter((s): s is FieldNode => s.kind === Kind.FIELD);
  return { fieldNodes, fragments };
}

test('the fields under list, through fragments and inline fragments, sorted and without duplicates', () => {
  const info = infoOf(`
    query { reports { count list { id ...R ... on Report { status vehicle { id } } id } } }
    fragment R on Report { startedAt ...S }
    fragment S on Report { status workflowStatus }`);
  assert.deepEqual(listFields(info), ['id', 'startedAt', 'status', 'vehicle', 'workflowStatus']);
});

test('fields of every node of a merged field count; a page without list selects nothing', () => {
  assert.deepEqual(listFields(infoOf('query { reports { list { id } } reports { list { status } } }')), [
    'id',
    'status',
  ]);
  assert.deepEqual(listFields(infoOf('query { reports { count next } }')), []);
});

test('skipped fields are kept: a superset, never too few', () => {
  assert.deepEqual(
    listFields(infoOf('query($s: Boolean!) { reports { list { id status @skip(if: $s) } } }')),
    ['id', 'status'],
  );
});

test('the walk is memoized on the AST nodes of the document', () => {
  const info = infoOf('query { reports { list { id } } }');
  assert.equal(listFields(info), listFields({ ...info }));
});

test("an object field's own selection, through fragments", () => {
  const info = infoOf(
    'query { vehicle { plate ...V ... on Vehicle { make } } } fragment V on Vehicle { model plate }',
  );
  assert.deepEqual(selectedFields(info), ['make', 'model', 'plate']);
  assert.deepEqual(listFields(info), [], 'the two walks are memoized apart');
});

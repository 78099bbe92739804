import assert from 'node:assert/strict';
import { test } from 'node:test';
import { projectedFields } from './projection';
import type { TableSpec } from './table-spec';

const spec = (fieldNeeds?: TableSpec['fieldNeeds']): TableSpec => ({
  table: 'books',
  alias: 'b',
  columns: { id: 'id', shelfId: 'shelf_id', title: 'title', notes: 'notes', year: 'year' },
  order: { columns: ['b.year', 'b.id'], fields: ['year', 'id'] },
  ...(fieldNeeds ? { fieldNeeds } : {}),
});

test('the selected columns, the needs of computed fields, the id and the order fields', () => {
  const books = spec({ label: ['title', 'year'], shelf: ['shelfId'] });
  assert.deepEqual(projectedFields(books, ['__typename', 'label']), ['id', 'title', 'year']);
  assert.deepEqual(projectedFields(books, ['shelf']), ['id', 'shelfId', 'year']);
  assert.deepEqual(
    projectedFields(books, []),
    ['id', 'year'],
    'a page whose list is not selected still pages',
  );
});

test('every column: no fieldNeeds, no selection known, an unknown field, or everything needed anyway', () => {
  assert.equal(projectedFields(spec(), ['title']), undefined);
  const books = spec({ label: ['title'] });
  assert.equal(projectedFields(books, undefined), undefined);
  assert.equal(projectedFields(books, ['title', 'somethingNew']), undefined);
  assert.equal(projectedFields(books, ['title', 'notes', 'shelfId']), undefined);
});

test('needs naming a field that is not a column are refused when first used', () => {
  assert.throws(
    () => projectedFields(spec({ label: ['tittle'] }), ['label']),
    /fieldNeeds\.label names tittle/,
  );
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_PROJECTIONS, projectedFields } from './projection';
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

test(`past ${MAX_PROJECTIONS} distinct projections of a table, a new selection reads every column`, () => {
  const wide: TableSpec = {
    table: 'wide',
    alias: 'w',
    columns: Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`c${i}`, `c${i}`])),
    order: { columns: ['w.c0'], fields: ['c0'] },
    fieldNeeds: {},
  };
  // Subsets of c1..c8: 255 distinct projections on offer.
  const subsets = Array.from({ length: 255 }, (_, n) =>
    Array.from({ length: 8 }, (_, bit) => (n & (1 << bit) ? `c${bit + 1}` : '')).filter(Boolean),
  );
  const results = subsets.map((subset) => projectedFields(wide, subset));
  assert.equal(results.filter(Boolean).length, MAX_PROJECTIONS);
  assert.deepEqual(projectedFields(wide, subsets[0]), results[0], 'a known selection keeps its projection');
  assert.equal(results.at(-1), undefined);
});

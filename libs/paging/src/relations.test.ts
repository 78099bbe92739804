import assert from 'node:assert/strict';
import { asViewer } from '@fleetgraph/auth';
import { after, before, test } from 'node:test';
import { createKnex, createTestDatabase, type Knex, type TestDatabase } from '@fleetgraph/db';
import { CursorCodec } from './cursor';
import { relationLoader, type RelationSpec } from './relations';
import { from, type TableSpec } from './table-spec';

let database: TestDatabase;
let knex: Knex;
before(async () => {
  database = await createTestDatabase('relation pages');
  knex = createKnex({ url: database.url, preparedStatements: true });
  await knex.raw('create table shelves (id text primary key)');
  await knex.raw(
    'create table books (id text primary key, shelf_id text not null, reader text not null, year int not null)',
  );
  await knex.raw(`insert into shelves values ('s1'), ('s2')`);
  // Each shelf holds books of two readers; a reader sees only theirs.
  await knex.raw(`insert into books values
    ('b1', 's1', 'ann', 2001), ('b2', 's1', 'ann', 2002), ('b3', 's1', 'ann', 2003),
    ('b4', 's1', 'bob', 2004), ('b5', 's2', 'bob', 2005), ('b6', 's2', 'ann', 2006)`);
});
after(async () => {
  await knex.destroy();
  await database.drop();
});

const books: TableSpec = {
  table: 'books',
  alias: 'b',
  columns: { id: 'id', year: 'year' },
  order: { columns: ['b.id'], fields: ['id'] },
};

/** A module-level spec, as the apps declare them: its page statement is compiled once. */
const shelfBooks: RelationSpec = {
  name: 'Shelf.books',
  parentType: 'text',
  child: books,
  rules: { defaultSize: 2, maxSize: 10 },
  children: (k, viewer) => from(k, books).whereRaw('b.shelf_id = p.parent_id').where('b.reader', viewer),
  filter: (query, filters) => {
    if (filters.since !== undefined) query.where('b.year', '>=', filters.since as number);
  },
};

const codec = new CursorCodec('relation-pages-test-secret');
const ids = (page: { list: Array<{ id: string }> }) => page.list.map((book) => book.id);

test("a compiled page binds each request's viewer: one viewer never sees another's children", async () => {
  const ann = relationLoader<{ id: string }>(knex, codec, asViewer('ann'), shelfBooks);
  const [annS1, annS2] = await Promise.all([
    ann.load({ parentId: 's1', args: {} }),
    ann.load({ parentId: 's2', args: {} }),
  ]);
  assert.deepEqual([ids(annS1), ids(annS2)], [['b1', 'b2'], ['b6']]);
  assert.ok(annS1.next, 'ann has a third book on s1');

  const bob = relationLoader<{ id: string }>(knex, codec, asViewer('bob'), shelfBooks);
  const [bobS1, bobS2] = await Promise.all([
    bob.load({ parentId: 's1', args: {} }),
    bob.load({ parentId: 's2', args: {} }),
  ]);
  assert.deepEqual([ids(bobS1), ids(bobS2)], [['b4'], ['b5']]);
  assert.equal(bobS1.next, null);
});

test('a continued page binds its position; a filtered page is built per call and still batched', async () => {
  const ann = relationLoader<{ id: string }>(knex, codec, asViewer('ann'), shelfBooks);
  const first = await ann.load({ parentId: 's1', args: {} });
  const rest = await ann.load({ parentId: 's1', args: { pageId: first.next! } });
  assert.deepEqual(ids(rest), ['b3']);

  const since = relationLoader<{ id: string }>(knex, codec, asViewer('ann'), shelfBooks);
  const [s1, s2] = await Promise.all([
    since.load({ parentId: 's1', args: { since: 2002 } }),
    since.load({ parentId: 's2', args: { since: 2002 } }),
  ]);
  assert.deepEqual([ids(s1), ids(s2)], [['b2', 'b3'], ['b6']]);
});

test('a mark is set on every row of its page, and pages of two marks never share rows', async () => {
  const ann = relationLoader<{ id: string; lang?: string }>(knex, codec, asViewer('ann'), shelfBooks);
  const [fr, de, plain] = await Promise.all([
    ann.load({ parentId: 's1', args: {}, mark: { lang: 'FR' } }),
    ann.load({ parentId: 's1', args: {}, mark: { lang: 'DE' } }),
    ann.load({ parentId: 's1', args: {} }),
  ]);
  assert.deepEqual(ids(fr), ['b1', 'b2']);
  assert.deepEqual(
    [fr, de, plain].map((page) => page.list.map((book) => book.lang)),
    [
      ['FR', 'FR'],
      ['DE', 'DE'],
      [undefined, undefined],
    ],
  );
  assert.deepEqual(ids(await ann.load({ parentId: 's1', args: { pageId: fr.next! } })), ['b3']);
});

test('ways: each parent is read by the first way whose condition holds, page after page, as without ways', async () => {
  const byWays: RelationSpec = {
    ...shelfBooks,
    name: 'Shelf.books by ways',
    ways: [
      {
        when: (k) => k.raw(`p.parent_id = 's1'`),
        children: (k, viewer) =>
          from(k, books).where('b.shelf_id', k.raw('p.parent_id')).where('b.reader', viewer),
        orderFirst: ['b.shelf_id'],
      },
    ],
  };
  for (const viewer of ['ann', 'bob']) {
    const pages = async (spec: RelationSpec) => {
      const seen: string[][] = [];
      for (const shelf of ['s1', 's2']) {
        let pageId: string | undefined;
        const ids: string[] = [];
        do {
          const loader = relationLoader<{ id: string }>(knex, codec, asViewer(viewer), spec);
          const page = await loader.load({ parentId: shelf, args: { pageSize: 1, pageId } });
          ids.push(...page.list.map((book) => book.id));
          pageId = page.next ?? undefined;
        } while (pageId);
        seen.push(ids);
      }
      return seen;
    };
    assert.deepEqual(await pages(byWays), await pages(shelfBooks), viewer);
  }
});

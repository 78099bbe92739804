/**
 * A small real subgraph for subgraph-kit's tests: createSubgraphApp on a throwaway PostgreSQL
 * database, with a table of items looked up by id lists, by name and as `_entities`, and a
 * DateTime argument. Every lookup is SQL, so what PostgreSQL refuses shows up as it would in an app.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import DataLoader from 'dataloader';
import type { FastifyInstance } from 'fastify';
import { createTestDatabase, type Knex } from '@fleetgraph/db';
import { createTestIssuer, injectGraphQL, type GraphQLResponse, type TestUser } from '@fleetgraph/testing';
import { createSubgraphApp } from '../app';
import { loadSubgraphConfig } from '../config';
import { DateTimeScalar } from '../scalars';
import type { Resolvers } from '../subgraph';

const SDL = `
extend schema @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key"])
scalar DateTime
type Item @key(fields: "id") { id: ID! name: String! }
"A stub of another subgraph's entity (no resolver: the representation is the answer)."
type Owner @key(fields: "id", resolvable: false) { id: ID! }
input ItemFilter { ids: [ID!] names: [String!] }
type Query {
  items(ids: [ID!], filter: ItemFilter): [Item!]!
  item(id: ID!): Item
  itemsNamed(name: String!): [Item!]!
  echoDate(at: DateTime!): DateTime!
}
`;

interface Reader {
  knex: Knex;
  item: DataLoader<string, Record<string, unknown> | null>;
}

const resolvers: Resolvers<Reader> = {
  DateTime: DateTimeScalar,
  Query: {
    items: (
      _: unknown,
      args: { ids?: string[]; filter?: { ids?: string[]; names?: string[] } },
      { reader },
    ) => {
      const query = reader.knex('kit_test.items').select('id', 'name').orderBy('id');
      const ids = args.ids ?? args.filter?.ids;
      if (ids) query.whereIn('id', ids);
      if (args.filter?.names) query.whereIn('name', args.filter.names);
      return query;
    },
    item: (_: unknown, args: { id: string }, { reader }) => reader.item.load(args.id),
    itemsNamed: (_: unknown, args: { name: string }, { reader }) =>
      reader.knex('kit_test.items').select('id', 'name').where('name', args.name),
    echoDate: (_: unknown, args: { at: Date }) => args.at,
  },
  Item: {
    __resolveReference: (ref: { id: string }, { reader }: { reader: Reader }) => reader.item.load(ref.id),
  } as never,
};

export const ITEMS = Array.from({ length: 3 }, (_, i) => ({ id: `i${i + 1}`, name: `Item ${i + 1}` }));

export interface TestSubgraph {
  app: FastifyInstance;
  query(query: string, variables?: Record<string, unknown>): Promise<GraphQLResponse<any>>;
  /** A POST of this JSON text as it is (for bodies JSON.stringify cannot write), as the test user. */
  postRaw(body: string): Promise<{ status: number; body: GraphQLResponse<any> }>;
  close(): Promise<void>;
}

export async function startTestSubgraph(label: string): Promise<TestSubgraph> {
  const database = await createTestDatabase(label);
  const issuer = await createTestIssuer();
  const schemaDir = mkdtempSync(join(tmpdir(), 'subgraph-kit-schema-'));
  writeFileSync(join(schemaDir, 'schema.graphql'), SDL);
  const config = loadSubgraphConfig('subgraph-kit-test', 'KIT_TEST', 4999, {
    SSO_ISSUER: issuer.issuer,
    LOG_LEVEL: 'silent',
  });
  const app = await createSubgraphApp<Reader>(
    { ...config, databaseUrl: database.url },
    {
      dbSchema: 'kit_test',
      migrations: {
        '001_items': {
          async up(knex) {
            await knex.raw('create table kit_test.items (id text primary key, name text not null)');
            await knex('kit_test.items').insert(ITEMS);
          },
        },
      },
      schemaDir,
      resolvers,
      createReader: (knex) => ({
        knex,
        item: new DataLoader(async (ids) => {
          const rows: Array<Record<string, unknown>> = await knex('kit_test.items')
            .select('id', 'name')
            .whereIn('id', ids as string[]);
          const byId = new Map(rows.map((row) => [String(row.id), row]));
          return ids.map((id) => byId.get(id) ?? null);
        }),
      }),
    },
    { jwks: issuer.jwks },
  );
  const user: TestUser = { uid: '00000000-0000-4000-8000-000000000001', email: 'kit@test.example' };
  return {
    app,
    query: async (query, variables) =>
      injectGraphQL(app, query, { token: await issuer.token(user), variables: variables ?? {} }),
    async postRaw(body) {
      const response = await app.inject({
        method: 'POST',
        url: '/graphql',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${await issuer.token(user)}` },
        payload: body,
      });
      return { status: response.statusCode, body: response.json() as GraphQLResponse<any> };
    },
    async close() {
      await app.close();
      await database.drop();
      rmSync(schemaDir, { recursive: true, force: true });
    },
  };
}

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createKnex, type Knex } from './knex';
import { migrateSchema } from './migrate';
import { dropAppRoles, provisionAppRoles, rolePrefix, roleName, type ProvisionedRoles } from './roles';
import { createTestDatabase, type TestDatabase } from './test-database';

let database: TestDatabase;
let admin: Knex;
let provisioned: ProvisionedRoles;
const connections: Knex[] = [];

const specs = [
  { app: 'core', owns: ['core', 'core_contract'], reads: [] },
  { app: 'reader', owns: ['reader'], reads: ['core_contract'] },
];

function connectAs(app: string): Knex {
  const knex = createKnex({ url: provisioned.urls[app]!, pool: { min: 0, max: 1 } });
  connections.push(knex);
  return knex;
}

before(async () => {
  database = await createTestDatabase('db_roles');
  admin = createKnex({ url: database.url });
  await migrateSchema(admin, 'core', {
    '001': {
      up: async (k) => {
        await k.raw('create table core.secrets (id serial primary key, value text)');
        await k.raw("insert into core.secrets (value) values ('hidden')");
        await k.raw('create schema core_contract');
        await k.raw('create view core_contract.public_v1 as select id from core.secrets');
      },
    },
  });
  await migrateSchema(admin, 'reader', {
    '001': { up: async (k) => void (await k.raw('create table reader.notes (id int)')) },
  });
  provisioned = await provisionAppRoles(admin, database.url, specs);
});

after(async () => {
  for (const knex of connections) await knex.destroy();
  await admin?.destroy();
  if (database) {
    await database.drop();
    const server = createKnex({ url: process.env.DATABASE_URL! });
    await dropAppRoles(server, database.name);
    await server.destroy();
  }
});

test('each app connects as its own role, named after the database and the app', async () => {
  const core = connectAs('core');
  const [{ current_user }] = (await core.raw('select current_user')).rows;
  assert.equal(current_user, roleName(rolePrefix(database.name), 'core'));
  assert.notEqual(rolePrefix(database.name), rolePrefix('postgres'), 'test databases never share roles');
});

test('an app reads and writes its own tables and can migrate its own schema', async () => {
  const core = connectAs('core');
  await core('core.secrets').insert({ value: 'mine' });
  assert.deepEqual(await core('core.secrets').orderBy('id').pluck('value'), ['hidden', 'mine']);
  const applied = await migrateSchema(core, 'core', {
    '001': { up: async () => {} },
    '002': { up: async (k) => void (await k.raw('alter table core.secrets add column label text')) },
  });
  assert.deepEqual(applied, ['002']);
});

test("an app reads another app's contract but not its tables", async () => {
  const reader = connectAs('reader');
  const visible = await reader('core_contract.public_v1').pluck('id');
  assert.ok(visible.length >= 1, 'the contract answers');
  await assert.rejects(reader('core.secrets').select('value'), /permission denied for schema core/);
  await assert.rejects(reader('core_contract.public_v1').insert({ id: 99 }), /permission denied/);
});

test('an app cannot create objects outside its own schemas', async () => {
  const reader = connectAs('reader');
  await assert.rejects(reader.raw('create table core.intruder (id int)'), /permission denied/);
  await assert.rejects(reader.raw('create table public.intruder (id int)'), /permission denied/);
});

test('provisioning again is idempotent and hands over objects a later migration created as admin', async () => {
  await migrateSchema(admin, 'core', {
    '001': { up: async () => {} },
    '002': { up: async () => {} },
    '003': {
      up: async (k) =>
        void (await k.raw('create view core_contract.later_v1 as select id from core.secrets')),
    },
  });
  provisioned = await provisionAppRoles(admin, database.url, specs);
  const owner = await admin.raw(
    "select pg_get_userbyid(relowner) as owner from pg_class where oid = 'core_contract.later_v1'::regclass",
  );
  assert.equal(owner.rows[0].owner, provisioned.roles.core);
  const reader = connectAs('reader');
  assert.ok((await reader('core_contract.later_v1').pluck('id')).length >= 1, 'the new view is readable');
});

test('a schema claimed by two apps, or a read of a schema no app owns, is refused', async () => {
  await assert.rejects(
    provisionAppRoles(admin, database.url, [
      { app: 'a', owns: ['x'], reads: [] },
      { app: 'b', owns: ['x'], reads: [] },
    ]),
    /owned by a and b/,
  );
  await assert.rejects(
    provisionAppRoles(admin, database.url, [{ app: 'a', owns: ['x'], reads: ['nobody'] }]),
    /which no app owns/,
  );
});

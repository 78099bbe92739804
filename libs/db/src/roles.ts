/**
 * One database role per app: each app connects as a role that owns its own schemas (so it can
 * migrate and write them) and may only read the contract schemas it consumes. A bug or an
 * injection in one app can then neither read nor change another app's tables: PostgreSQL refuses
 * (`permission denied for schema`), whatever the SQL.
 *
 * provisionAppRoles runs as an administrator (the superuser of the embedded database, or the
 * DATABASE_URL user when it may create roles) after every migration, on every start: it is
 * idempotent, gives each role a fresh random password (held by the starting process only, passed
 * to each app in its connection URL) and hands every object of an owned schema to its role,
 * including objects a newer migration created as the administrator.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';

export interface AppRoleSpec {
  /** The app's name (`fleet-core`, `sso`, `gateway`...). */
  app: string;
  /** Schemas the app owns: its tables and the contracts it publishes. */
  owns: string[];
  /** Contract schemas of other apps it reads (SELECT only). */
  reads: string[];
}

export interface ProvisionedRoles {
  /** The connection URL of each app's role, by app name. */
  urls: Record<string, string>;
  /** The role name of each app. */
  roles: Record<string, string>;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/**
 * The roles of one database share a prefix: `fleetgraph` for the default database (`postgres`),
 * else `fg_` and a short hash of the database's name, so throwaway test databases on one server
 * never share a role.
 */
export function rolePrefix(databaseName: string): string {
  if (databaseName === 'postgres') return 'fleetgraph';
  return `fg_${createHash('sha256').update(databaseName).digest('hex').slice(0, 10)}`;
}

export function roleName(prefix: string, app: string): string {
  const name = `${prefix}_${app.toLowerCase().replace(/[^a-z0-9]/g, '_')}`;
  if (!IDENTIFIER.test(name) || name.length > 63) throw new Error(`invalid role name ${name}`);
  return name;
}

function databaseOf(url: string): string {
  return decodeURIComponent(new URL(url).pathname.replace(/^\//, '')) || 'postgres';
}

function urlFor(adminUrl: string, role: string, password: string): string {
  const url = new URL(adminUrl);
  url.username = role;
  url.password = password;
  return url.toString();
}

async function ensureRole(knex: Knex, role: string, password: string): Promise<void> {
  const exists = await knex.raw('select 1 from pg_roles where rolname = ?', [role]);
  const verb = exists.rows.length > 0 ? 'alter' : 'create';
  // DDL takes no bind parameters: the password is a literal, made only of base64url characters.
  if (!/^[A-Za-z0-9_-]+$/.test(password)) throw new Error('role passwords are base64url');
  // A role that logs in and may do nothing else cluster-wide.
  await knex.raw(
    `${verb} role ?? with login nosuperuser nocreatedb nocreaterole noinherit password '${password}'`,
    [role],
  );
}

/** Hands a schema and everything in it to the role (tables, views, sequences, functions). */
async function giveSchema(knex: Knex, schema: string, role: string): Promise<void> {
  await knex.raw('create schema if not exists ??', [schema]);
  await knex.raw('alter schema ?? owner to ??', [schema, role]);
  const relations = await knex.raw(
    `select c.relname, c.relkind from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = ? and c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')
        and pg_get_userbyid(c.relowner) <> ?`,
    [schema, role],
  );
  for (const { relname, relkind } of relations.rows as { relname: string; relkind: string }[]) {
    // A sequence owned by a column follows its table.
    if (relkind === 'S') {
      const owned = await knex.raw(
        `select 1 from pg_depend d join pg_class s on s.oid = d.objid join pg_namespace n on n.oid = s.relnamespace
          where n.nspname = ? and s.relname = ? and d.deptype in ('a', 'i')`,
        [schema, relname],
      );
      if (owned.rows.length > 0) continue;
    }
    const kind =
      relkind === 'v'
        ? 'view'
        : relkind === 'm'
          ? 'materialized view'
          : relkind === 'S'
            ? 'sequence'
            : 'table';
    await knex.raw(`alter ${kind} ??.?? owner to ??`, [schema, relname, role]);
  }
  const functions = await knex.raw(
    `select p.oid::regprocedure::text as signature from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = ? and pg_get_userbyid(p.proowner) <> ?`,
    [schema, role],
  );
  for (const { signature } of functions.rows as { signature: string }[]) {
    await knex.raw(`alter routine ${signature} owner to ??`, [role]);
  }
}

/** SELECT on every relation of a contract schema, now and for those its owner adds later. */
async function grantRead(knex: Knex, schema: string, owner: string, reader: string): Promise<void> {
  await knex.raw('grant usage on schema ?? to ??', [schema, reader]);
  await knex.raw('grant select on all tables in schema ?? to ??', [schema, reader]);
  await knex.raw('alter default privileges for role ?? in schema ?? grant select on tables to ??', [
    owner,
    schema,
    reader,
  ]);
}

function ownersBySchema(specs: AppRoleSpec[]): Map<string, string> {
  const owners = new Map<string, string>();
  for (const spec of specs) {
    for (const schema of spec.owns) {
      if (!IDENTIFIER.test(schema)) throw new Error(`invalid schema name ${schema}`);
      const previous = owners.get(schema);
      if (previous && previous !== spec.app)
        throw new Error(`schema ${schema} is owned by ${previous} and ${spec.app}`);
      owners.set(schema, spec.app);
    }
  }
  for (const spec of specs)
    for (const schema of spec.reads)
      if (!owners.has(schema)) throw new Error(`${spec.app} reads ${schema}, which no app owns`);
  return owners;
}

/** Creates (or brings in line) one role per app; answers each app's connection URL. */
export async function provisionAppRoles(
  knex: Knex,
  adminUrl: string,
  specs: AppRoleSpec[],
  /**
   * Each app's password by app name, when the apps are started by someone else who already holds
   * it (the containers' migrations job); an app missing here gets a fresh random one.
   */
  passwords: Record<string, string> = {},
): Promise<ProvisionedRoles> {
  const prefix = rolePrefix(databaseOf(adminUrl));
  const owners = ownersBySchema(specs);
  const roles: Record<string, string> = {};
  const urls: Record<string, string> = {};
  for (const spec of specs) {
    const role = roleName(prefix, spec.app);
    const password = passwords[spec.app] ?? randomBytes(24).toString('base64url');
    await ensureRole(knex, role, password);
    roles[spec.app] = role;
    urls[spec.app] = urlFor(adminUrl, role, password);
  }
  const database = databaseOf(adminUrl);
  for (const spec of specs) {
    await knex.raw('grant connect on database ?? to ??', [database, roles[spec.app]!]);
    for (const schema of spec.owns) await giveSchema(knex, schema, roles[spec.app]!);
  }
  for (const spec of specs) {
    for (const schema of spec.reads) {
      const owner = owners.get(schema)!;
      await grantRead(knex, schema, roles[owner]!, roles[spec.app]!);
    }
  }
  return { urls, roles };
}

/**
 * Drops the roles of one database (a throwaway test database, after it was dropped: the roles
 * then own nothing anywhere).
 */
export async function dropAppRoles(knex: Knex, databaseName: string): Promise<void> {
  const prefix = rolePrefix(databaseName);
  const rows = await knex.raw(`select rolname from pg_roles where rolname like ?`, [`${prefix}\\_%`]);
  for (const { rolname } of rows.rows as { rolname: string }[]) {
    await knex.raw('drop role if exists ??', [rolname]);
  }
}

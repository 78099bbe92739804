/** sso.users: explicit columns, rows mapped to the User model. Emails match case-insensitively. */
import type { Knex } from '@fleetgraph/db';

export interface User {
  id: string;
  email: string;
  fullName: string;
  language: string;
  disabled: boolean;
}

export interface UserWithHash extends User {
  passwordHash: string;
}

const COLUMNS = ['id', 'email', 'full_name', 'language', 'disabled'] as const;

function toUser(row: Record<string, unknown>): User {
  return {
    id: row.id as string,
    email: row.email as string,
    fullName: row.full_name as string,
    language: row.language as string,
    disabled: row.disabled as boolean,
  };
}

export async function findUserByEmail(knex: Knex, email: string): Promise<UserWithHash | undefined> {
  // Matches the unique index on lower(email).
  const row = await knex('sso.users')
    .select(...COLUMNS, 'password_hash')
    .whereRaw('lower(email) = lower(?)', [email])
    .first();
  return row ? { ...toUser(row), passwordHash: row.password_hash as string } : undefined;
}

export async function findUserById(knex: Knex, id: string): Promise<User | undefined> {
  const row = await knex('sso.users')
    .select(...COLUMNS)
    .where({ id })
    .first();
  return row ? toUser(row) : undefined;
}

/** A user the platform's demo data needs (the seed orchestrator passes the subgraphs' demo logins). */
export interface NewUser {
  id: string;
  email: string;
  password: string;
  fullName: string;
  language?: string;
}

/**
 * Creates the users that do not exist yet (by id); existing users are left as they are, so a
 * demo password changed by hand survives a re-seed. Each distinct password is hashed once.
 */
export async function ensureUsers(
  knex: Knex,
  users: NewUser[],
  hash: (password: string) => Promise<string>,
): Promise<number> {
  if (users.length === 0) return 0;
  const hashes = new Map<string, string>();
  for (const password of new Set(users.map((u) => u.password))) hashes.set(password, await hash(password));
  const rows = users.map((u) => ({
    id: u.id,
    email: u.email,
    full_name: u.fullName,
    language: (u.language ?? 'en').toLowerCase(),
    password_hash: hashes.get(u.password) as string,
  }));
  let created = 0;
  // Batches keep each statement under PostgreSQL's parameter limit whatever the demo's scale.
  for (let i = 0; i < rows.length; i += 1000) {
    const batch = rows.slice(i, i + 1000);
    created += (await knex('sso.users').insert(batch).onConflict('id').ignore().returning('id')).length;
  }
  return created;
}

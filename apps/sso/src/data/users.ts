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

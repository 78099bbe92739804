/**
 * sso schema: users (argon2id hashes), signing keys (RSA, published as JWKS), refresh tokens
 * (stored hashed; rotation families), and revoked access-token ids.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table sso.users (
      id uuid primary key,
      email text not null,
      password_hash text not null,
      full_name text not null,
      language text not null default 'en',
      disabled boolean not null default false,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index users_email_idx on sso.users (lower(email));

    create table sso.signing_keys (
      kid text primary key,
      alg text not null default 'RS256',
      private_jwk jsonb not null,
      public_jwk jsonb not null,
      created_at timestamptz not null default now(),
      activated_at timestamptz,
      retired_at timestamptz
    );

    create table sso.refresh_tokens (
      id uuid primary key,
      token_hash text not null unique,
      family_id uuid not null,
      user_id uuid not null references sso.users(id) on delete cascade,
      client_id text,
      scope text not null,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      rotated_at timestamptz,
      revoked_at timestamptz
    );
    create index refresh_tokens_family_idx on sso.refresh_tokens (family_id);
    create index refresh_tokens_user_idx on sso.refresh_tokens (user_id);

    create table sso.access_tokens (
      jti uuid primary key,
      user_id uuid not null references sso.users(id) on delete cascade,
      family_id uuid,
      client_id text,
      expires_at timestamptz not null,
      revoked_at timestamptz
    );
    create index access_tokens_family_idx on sso.access_tokens (family_id);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(
    'drop table if exists sso.access_tokens, sso.refresh_tokens, sso.signing_keys, sso.users cascade',
  );
}

/**
 * Applications and the authorization-code flow: registered applications (client secrets stored as
 * SHA-256 hashes), authorization codes (hashed, single-use, bound to a token family), remembered
 * consents, browser sessions (hashed ids), sign-in failure records for throttling, the audit log,
 * and key rotation timestamps (a key may be activated in the future).
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table sso.applications (
      client_id text primary key,
      client_secret_hash text,
      name text not null,
      redirect_uris text[] not null default '{}',
      confidential boolean not null default true,
      allowed_scopes text[] not null default '{public}',
      grant_types text[] not null default '{authorization_code,refresh_token}',
      owner_user_id uuid references sso.users(id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      check (confidential = (client_secret_hash is not null))
    );

    create table sso.authorization_codes (
      code_hash text primary key,
      client_id text not null references sso.applications(client_id) on delete cascade,
      user_id uuid not null references sso.users(id) on delete cascade,
      redirect_uri text not null,
      -- RFC 6749 4.1.3: the token request must repeat redirect_uri when the authorization request had it.
      redirect_uri_given boolean not null default true,
      scope text not null,
      code_challenge text,
      code_challenge_method text,
      family_id uuid not null,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      used_at timestamptz
    );

    create table sso.consents (
      user_id uuid not null references sso.users(id) on delete cascade,
      client_id text not null references sso.applications(client_id) on delete cascade,
      scopes text[] not null,
      granted_at timestamptz not null default now(),
      primary key (user_id, client_id)
    );

    create table sso.sessions (
      id_hash text primary key,
      user_id uuid not null references sso.users(id) on delete cascade,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null
    );

    create table sso.auth_failures (
      id bigserial primary key,
      key text not null,
      at timestamptz not null default now()
    );
    create index auth_failures_key_at_idx on sso.auth_failures (key, at);

    create table sso.audit_log (
      id bigserial primary key,
      at timestamptz not null default now(),
      event text not null,
      user_id uuid,
      client_id text,
      ip text,
      detail jsonb not null default '{}'
    );
    create index audit_log_at_idx on sso.audit_log (at);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(
    'drop table if exists sso.audit_log, sso.auth_failures, sso.sessions, sso.consents, sso.authorization_codes, sso.applications cascade',
  );
}

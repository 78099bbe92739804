/**
 * sso_contract v1: the revocations the SSO publishes for every token verifier (gateway,
 * subgraphs). The rows stay the SSO's (sso.access_tokens.revoked_at); verifiers read
 * `sso_contract.revoked_access_tokens_v1` at start and follow the `fleetgraph_revocations`
 * channel, on which a trigger announces every revocation however it was made (token endpoint,
 * /oauth/revoke, refresh rotation, pages, admin CLI): `<jti> <exp epoch seconds>`.
 * The view is read-only (an INSTEAD OF trigger, as fleet_contract's).
 */
import type { Knex } from 'knex';

export const SSO_CONTRACT_SCHEMA = 'sso_contract';
export const REVOCATION_CHANNEL = 'fleetgraph_revocations';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create schema if not exists sso_contract;

    create view sso_contract.revoked_access_tokens_v1 as
      select jti, expires_at from sso.access_tokens
       where revoked_at is not null and expires_at > now();

    create function sso_contract.refuse_write() returns trigger language plpgsql as $$
    begin
      raise exception 'sso_contract.% is a read-only contract: the SSO owns this data', tg_table_name
        using errcode = '42501';
    end $$;

    create trigger read_only instead of insert or update or delete on sso_contract.revoked_access_tokens_v1
      for each row execute function sso_contract.refuse_write();

    create function sso.announce_revocation() returns trigger language plpgsql as $$
    begin
      perform pg_notify('${REVOCATION_CHANNEL}',
        new.jti::text || ' ' || floor(extract(epoch from new.expires_at))::bigint::text);
      return null;
    end $$;

    create trigger announce_revocation after update of revoked_at on sso.access_tokens
      for each row when (old.revoked_at is null and new.revoked_at is not null)
      execute function sso.announce_revocation();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop trigger if exists announce_revocation on sso.access_tokens;
    drop function if exists sso.announce_revocation();
    drop schema if exists sso_contract cascade;
  `);
}

/**
 * fleet_contract is read-only: PostgreSQL makes simple views updatable by default, which would
 * let a reader write fleet's tables through the contract. Every view of the schema refuses
 * INSERT, UPDATE and DELETE (an INSTEAD OF trigger raising an error), and so does every view a
 * later contract version adds (the migration that adds it calls fleet_contract.make_read_only()).
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create function fleet_contract.refuse_write() returns trigger language plpgsql as $$
    begin
      raise exception 'fleet_contract.% is a read-only contract: fleet-core owns this data', tg_table_name
        using errcode = '42501';
    end $$;

    create function fleet_contract.make_read_only() returns void language plpgsql as $$
    declare v record;
    begin
      for v in select table_name from information_schema.views where table_schema = 'fleet_contract' loop
        execute format('drop trigger if exists read_only on fleet_contract.%I', v.table_name);
        execute format(
          'create trigger read_only instead of insert or update or delete on fleet_contract.%I
             for each row execute function fleet_contract.refuse_write()', v.table_name);
      end loop;
    end $$;

    select fleet_contract.make_read_only();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop function if exists fleet_contract.make_read_only();
    drop function if exists fleet_contract.refuse_write() cascade;
  `);
}

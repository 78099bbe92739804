/**
 * Every change to an application (settings, secret rotation, deletion), by whatever process
 * (the pages, the admin CLI, another SSO instance), is announced on `fleetgraph_applications`
 * with its client id, so each SSO drops its cached row at once (data/application-cache.ts).
 */
import type { Knex } from 'knex';

export const APPLICATION_CHANNEL = 'fleetgraph_applications';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create function sso.announce_application_change() returns trigger language plpgsql as $$
    begin
      perform pg_notify('${APPLICATION_CHANNEL}', coalesce(old.client_id, new.client_id));
      return null;
    end $$;

    create trigger announce_application_change after update or delete on sso.applications
      for each row execute function sso.announce_application_change();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop trigger if exists announce_application_change on sso.applications;
    drop function if exists sso.announce_application_change();
  `);
}

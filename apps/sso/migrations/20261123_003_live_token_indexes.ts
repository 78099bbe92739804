/**
 * Indexes over the live tokens only. A family keeps every refresh and access token it ever had,
 * but only one of each is live (unrotated, unrevoked); the rotation statement looks up exactly
 * those. With the plain indexes, the planner scanned the family's whole history (access tokens)
 * or the whole table (refresh tokens, as the live filter looked selective), so a refresh cost
 * grew with the number of refreshes before it. These partial indexes stay one entry per login.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create index refresh_tokens_live_idx on sso.refresh_tokens (token_hash)
      where rotated_at is null and revoked_at is null;
    create index access_tokens_live_family_idx on sso.access_tokens (family_id)
      where revoked_at is null;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists sso.refresh_tokens_live_idx, sso.access_tokens_live_family_idx');
}

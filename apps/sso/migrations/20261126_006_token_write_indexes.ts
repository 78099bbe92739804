/**
 * Fewer index writes per refresh. Every refresh inserts a refresh token and an access token and
 * marks the previous ones rotated / revoked, so each index on those tables is written on every
 * refresh (and an update that changes an indexed column, or a column of a partial index's
 * predicate, cannot be a HOT update: it writes a new entry into EVERY index of the table).
 * - refresh_tokens_live_idx duplicated the unique token_hash index: every lookup is by
 *   token_hash equality (the batched rotation names the hashes as one array, an index condition
 *   on the unique index whatever the statistics; refresh-plan.test.ts). Without it, no index
 *   covers rotated_at / revoked_at, so marking a token rotated can be a HOT update (no index
 *   write at all) when its page has room; fillfactor 90 keeps room on the pages of new tokens.
 * - access_tokens_family_idx duplicated access_tokens_live_family_idx: every statement that looks
 *   up a family's access tokens only wants the unrevoked ones (supersede, family revocation).
 * Index entries written per refresh (the audit row's 2 included): 9 instead of 16 when marking
 * the token rotated is a HOT update, 13 when its page is full.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    drop index sso.refresh_tokens_live_idx;
    drop index sso.access_tokens_family_idx;
    alter table sso.refresh_tokens set (fillfactor = 90);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table sso.refresh_tokens reset (fillfactor);
    create index access_tokens_family_idx on sso.access_tokens (family_id);
    create index refresh_tokens_live_idx on sso.refresh_tokens (token_hash)
      where rotated_at is null and revoked_at is null;
  `);
}

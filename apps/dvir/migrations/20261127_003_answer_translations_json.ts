/**
 * An answer's item translations stored as json instead of jsonb.
 *
 * Why: every answer carries a snapshot of its item's translations (about 550 bytes, five
 * languages), and a page of answers sends every copy. Stored as jsonb, PostgreSQL rebuilt each
 * value's text on every read (jsonb_out): 413 answers with the column took 3.6-4.1 ms, against
 * 1.3-1.6 ms stored as json and 0.4 ms without it (`pgbench -M prepared`, one client, demo data).
 * The column is only written and read whole, never queried inside, so jsonb's operators and
 * indexing bought nothing. Rewrites the table once.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`alter table dvir.inspection_answers
    alter column item_translations type json using item_translations::json,
    alter column item_translations set default '{}'::json`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`alter table dvir.inspection_answers
    alter column item_translations type jsonb using item_translations::jsonb,
    alter column item_translations set default '{}'::jsonb`);
}

/**
 * Kept transaction statistics of groups: per transaction group (the group a transaction was placed
 * in at import, which never changes), UTC day and UTC month, product category, energy type,
 * quantity unit and currency, the sums `Group.mobilityTransactionStatistics` reports. A group's
 * statistics read the rows of its descendant groups (fleet_contract.group_ancestors_v1, read
 * live, so a change of the hierarchy shows at once) for the whole months and days of the range,
 * and the transactions themselves only for the partial days at its edges (src/data/statistics.ts),
 * instead of every transaction under the group.
 *
 * Kept exact in the writing transaction by statement-level triggers with transition tables, like
 * fleet-core's daily distance: every writer (import, detection, demo seed, benchmarks, tests)
 * keeps them without knowing. Inserted transactions are added, deleted ones subtracted, an update
 * is both (a correction of a quantity, a price or a product moves the sums), truncate empties the
 * table; a bucket left without transactions is deleted. Sums are numeric, so adding and
 * subtracting never drifts.
 *
 * anomaliesCount (every anomaly of the transactions, active or cleared) is kept the same way:
 * transactions.anomaly_count is the number of anomalies of the transaction, kept by a trigger on
 * mobility.anomalies (an insert adds, a delete subtracts), and the update of that column is an
 * update of the transaction like any other. An anomaly deleted with its transaction (cascade)
 * updates nothing: the transaction's own delete subtracts its count.
 *
 * The existing transactions and anomalies are counted once here (backfill).
 */
import type { Knex } from 'knex';
import { dropKeptAggregateTriggers, keptAggregateTriggers } from '@fleetgraph/db';

/** Per bucket signed sums of `rows` (a relation with mobility.transactions' columns) times `sign`. */
const contributions = (rows: string, sign: number) =>
  ['day', 'month']
    .map(
      (unit) => `
  select r.group_id, '${unit === 'day' ? 'D' : 'M'}'::char(1) as level,
         date_trunc('${unit}', r.transacted_at at time zone 'UTC') at time zone 'UTC' as period_start,
         r.product_category, r.energy_type, r.quantity_unit, r.currency,
         ${sign} * count(*) as transactions, ${sign} * sum(r.quantity::numeric) as quantity,
         ${sign} * coalesce(sum(r.net_total::numeric), 0) as net_total,
         ${sign} * coalesce(sum(r.gross_total::numeric), 0) as gross_total,
         ${sign} * coalesce(sum(r.quantity::numeric) filter (where r.net_total is not null), 0) as net_quantity,
         ${sign} * coalesce(sum(r.quantity::numeric) filter (where r.gross_total is not null), 0) as gross_quantity,
         ${sign} * count(*) filter (where r.net_total is not null) as net_transactions,
         ${sign} * count(*) filter (where r.gross_total is not null) as gross_transactions,
         ${sign} * sum(r.anomaly_count) as anomalies
    from ${rows} r
   where r.group_id is not null
   group by 1, 2, 3, 4, 5, 6, 7`,
    )
    .join(' union all ');

const KEY = 'group_id, level, period_start, product_category, energy_type, quantity_unit, currency';
const SUMS = [
  'transactions',
  'quantity',
  'net_total',
  'gross_total',
  'net_quantity',
  'gross_quantity',
  'net_transactions',
  'gross_transactions',
  'anomalies',
];

/** Applies the net change of `parts` (signed contributions) to the kept rows. */
const APPLY = (parts: string) => `
  with delta as (
    select ${KEY}, ${SUMS.map((s) => `sum(${s}) as ${s}`).join(', ')}
      from (${parts}) c
     group by ${KEY}
    having ${SUMS.map((s) => `sum(${s}) <> 0`).join(' or ')}
  ), applied as (
    insert into mobility.group_transaction_statistics as s (${KEY}, ${SUMS.join(', ')})
    -- In key order: concurrent writers lock the buckets they share in the same order (no deadlock).
    select ${KEY}, ${SUMS.join(', ')} from delta order by ${KEY}
    on conflict (${KEY}) do update set ${SUMS.map((x) => `${x} = s.${x} + excluded.${x}`).join(', ')}
    returning s.id, s.transactions
  )
  select coalesce(array_agg(id), '{}') into emptied from applied where transactions = 0;
  -- A statement cannot delete the rows it has just updated: the emptied buckets go in a second one.
  delete from mobility.group_transaction_statistics where id = any(emptied);`;

const GROUP_STATISTICS = {
  source: 'mobility.transactions',
  schema: 'mobility',
  name: 'group_statistics',
  declare: 'emptied bigint[];',
  onInsert: APPLY(contributions('added', 1)),
  onDelete: APPLY(contributions('gone', -1)),
  onUpdate: APPLY(`${contributions('added', 1)} union all ${contributions('gone', -1)}`),
  onTruncate: 'truncate mobility.group_transaction_statistics;',
};

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table mobility.transactions add column anomaly_count integer not null default 0;
    update mobility.transactions t set anomaly_count = a.n
      from (select transaction_id, count(*)::int as n from mobility.anomalies group by 1) a
     where a.transaction_id = t.id;

    create table mobility.group_transaction_statistics (
      id bigserial primary key,
      group_id uuid not null,
      -- D: a UTC day, M: a UTC month, starting at period_start.
      level char(1) not null check (level in ('D', 'M')),
      period_start timestamptz not null,
      product_category text not null,
      energy_type text not null,
      quantity_unit text not null,
      currency text,
      -- No check (transactions >= 0): PostgreSQL checks the proposed row of an upsert (a delta,
      -- negative for a removal) before it finds the conflict. A bucket reaching 0 is deleted.
      transactions bigint not null,
      quantity numeric not null,
      net_total numeric not null,
      gross_total numeric not null,
      -- The quantity of the transactions with a net (gross) total: the average unit price's divisor.
      net_quantity numeric not null,
      gross_quantity numeric not null,
      net_transactions bigint not null,
      gross_transactions bigint not null,
      anomalies bigint not null
    );
    -- One row per bucket (a null currency is a bucket of its own), and the index a group's range
    -- of buckets is read by.
    create unique index group_transaction_statistics_key on mobility.group_transaction_statistics
      (group_id, level, period_start, product_category, energy_type, quantity_unit, currency) nulls not distinct;

    insert into mobility.group_transaction_statistics (${KEY}, ${SUMS.join(', ')})
    ${contributions('mobility.transactions', 1)};

    ${keptAggregateTriggers(GROUP_STATISTICS)}

    create function mobility.anomaly_count_added() returns trigger language plpgsql as $$
    begin
      update mobility.transactions t set anomaly_count = t.anomaly_count + a.n
        from (select transaction_id, count(*)::int as n from added group by 1) a
       where t.id = a.transaction_id;
      return null;
    end $$;

    create function mobility.anomaly_count_removed() returns trigger language plpgsql as $$
    begin
      update mobility.transactions t set anomaly_count = t.anomaly_count - a.n
        from (select transaction_id, count(*)::int as n from gone group by 1) a
       where t.id = a.transaction_id;
      return null;
    end $$;

    create trigger anomalies_count_insert after insert on mobility.anomalies
      referencing new table as added for each statement execute function mobility.anomaly_count_added();
    create trigger anomalies_count_delete after delete on mobility.anomalies
      referencing old table as gone for each statement execute function mobility.anomaly_count_removed();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop trigger if exists anomalies_count_insert on mobility.anomalies;
    drop trigger if exists anomalies_count_delete on mobility.anomalies;
    ${dropKeptAggregateTriggers(GROUP_STATISTICS)}
    drop function if exists mobility.anomaly_count_added();
    drop function if exists mobility.anomaly_count_removed();
    drop table if exists mobility.group_transaction_statistics;
    alter table mobility.transactions drop column if exists anomaly_count;
  `);
}

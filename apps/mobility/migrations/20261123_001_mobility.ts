/**
 * mobility schema: fuel and energy transactions (fuel-card statements, charge sessions,
 * telematics-detected refills) and the anomalies the rule engine finds in them.
 *
 * - transactions: one row per purchase; asset ids (vehicle, device, driver, group) are resolved at
 *   import through fleet_contract and never change afterwards.
 * - anomalies: one row per finding (rule code, severity, expected vs observed, evidence jsonb).
 *   The transaction facts that anomaly filters use (asset ids, transacted_at, product, location,
 *   external ids) are copied onto the anomaly so that every filter of mobilityTransactionAnomalies
 *   is an index range on one table. A finding is never rewritten: clearing sets cleared_* and
 *   active=false, and every transition is an anomaly_events row.
 * - pending_checks: rule verdicts that were inconclusive (e.g. no vehicle position near the
 *   transaction time), re-evaluated when late data arrives.
 * - late_positions: vehicle positions delivered after the fact (provider backfills), read by the
 *   rules together with fleet_contract.vehicle_positions_v1.
 *
 * Autovacuum may be off (no statistics): every filter has its own composite index ending with
 * the keyset order, so the planner has one obvious index per query shape.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table mobility.transactions (
      id uuid primary key default gen_random_uuid(),
      organization_id uuid not null,
      transacted_at timestamptz(3) not null,
      quantity double precision not null,
      quantity_unit text not null,
      odometer_km integer,
      energy_type text not null,
      product_category text not null,
      transaction_type text not null,
      product_label text,
      vehicle_plate text,
      vehicle_vin text,
      device_imei text,
      driver_label text,
      net_unit_price double precision,
      gross_unit_price double precision,
      net_total double precision,
      gross_total double precision,
      currency text,
      station_name text,
      station_brand text,
      station_city text,
      station_postal_code text,
      station_latitude double precision,
      station_longitude double precision,
      source text not null,
      external_source text,
      external_id text,
      notes text,
      vehicle_id uuid,
      device_id text,
      driver_id uuid,
      group_id uuid,
      planted_fraud text,
      import_id uuid,
      price_area text generated always as (left(station_postal_code, 2)) stored,
      created_at timestamptz(3) not null default now(),
      updated_at timestamptz(3) not null default now(),
      check (quantity >= 0),
      check (station_latitude between -90 and 90 and station_longitude between -180 and 180)
    );
    comment on column mobility.transactions.planted_fraud is
      'Demo and benchmark data only: the rule code of the fraud planted in this row (null: honest).';
    create unique index transactions_external_uq on mobility.transactions (organization_id, external_source, external_id)
      where external_source is not null and external_id is not null;
    create index transactions_time_idx on mobility.transactions (transacted_at desc, id desc);
    create index transactions_vehicle_idx on mobility.transactions (vehicle_id, transacted_at desc, id desc);
    create index transactions_device_idx on mobility.transactions (device_id, transacted_at desc, id desc);
    create index transactions_driver_idx on mobility.transactions (driver_id, transacted_at desc, id desc);
    create index transactions_group_idx on mobility.transactions (group_id, transacted_at desc, id desc);
    create index transactions_import_idx on mobility.transactions (import_id, transacted_at, id) where import_id is not null;
    -- UNIT_PRICE_OUTLIER's sample: same organization, product, postal area and week.
    create index transactions_price_sample_idx on mobility.transactions (organization_id, product_category, price_area, transacted_at);

    create table mobility.anomalies (
      id uuid primary key default gen_random_uuid(),
      transaction_id uuid not null references mobility.transactions(id) on delete cascade,
      organization_id uuid not null,
      code text not null,
      description text not null,
      severity text not null,
      severity_rank smallint not null,
      status text not null,
      active boolean not null default true,
      detected_at timestamptz(3) not null,
      detected_by text not null,
      detected_by_id text,
      cleared_at timestamptz(3),
      cleared_by text,
      cleared_by_id text,
      clear_reason text,
      expected_value double precision,
      observed_value double precision,
      unit text,
      evidence jsonb not null default '{}'::jsonb,
      vehicle_id uuid,
      device_id text,
      driver_id uuid,
      group_id uuid,
      transacted_at timestamptz(3) not null,
      product_category text not null,
      transaction_type text not null,
      external_source text,
      external_id text,
      location_city text,
      location_postal_code text,
      location_latitude double precision,
      location_longitude double precision,
      check (active = (cleared_at is null))
    );
    create unique index anomalies_one_active_uq on mobility.anomalies (transaction_id, code) where active;
    create index anomalies_detected_idx on mobility.anomalies (detected_at desc, id desc);
    create index anomalies_transacted_idx on mobility.anomalies (transacted_at desc, id desc);
    create index anomalies_severity_idx on mobility.anomalies (severity_rank desc, detected_at desc, id desc);
    create index anomalies_transaction_idx on mobility.anomalies (transaction_id, detected_at desc, id desc);
    create index anomalies_vehicle_idx on mobility.anomalies (vehicle_id, detected_at desc, id desc);
    create index anomalies_device_idx on mobility.anomalies (device_id, detected_at desc, id desc);
    create index anomalies_driver_idx on mobility.anomalies (driver_id, detected_at desc, id desc);
    create index anomalies_group_idx on mobility.anomalies (group_id, detected_at desc, id desc);
    create index anomalies_code_idx on mobility.anomalies (code, detected_at desc, id desc);
    create index anomalies_status_idx on mobility.anomalies (status, detected_at desc, id desc);
    create index anomalies_active_idx on mobility.anomalies (active, detected_at desc, id desc);
    create index anomalies_severity_filter_idx on mobility.anomalies (severity, detected_at desc, id desc);
    create index anomalies_detected_by_idx on mobility.anomalies (detected_by, detected_by_id, detected_at desc);
    create index anomalies_detected_by_id_idx on mobility.anomalies (detected_by_id, detected_at desc);
    create index anomalies_cleared_by_idx on mobility.anomalies (cleared_by, cleared_by_id, cleared_at desc);
    create index anomalies_cleared_by_id_idx on mobility.anomalies (cleared_by_id, cleared_at desc);
    create index anomalies_cleared_at_idx on mobility.anomalies (cleared_at desc, id desc) where cleared_at is not null;
    create index anomalies_external_idx on mobility.anomalies (external_id, external_source);
    create index anomalies_external_source_idx on mobility.anomalies (external_source, detected_at desc);
    create index anomalies_product_idx on mobility.anomalies (product_category, detected_at desc, id desc);
    create index anomalies_type_idx on mobility.anomalies (transaction_type, detected_at desc, id desc);
    create index anomalies_city_idx on mobility.anomalies (location_city, detected_at desc);
    create index anomalies_postal_idx on mobility.anomalies (location_postal_code, detected_at desc);
    create index anomalies_lat_idx on mobility.anomalies (location_latitude, location_longitude);
    create index anomalies_lng_idx on mobility.anomalies (location_longitude);

    create table mobility.anomaly_events (
      id bigserial primary key,
      anomaly_id uuid not null references mobility.anomalies(id) on delete cascade,
      at timestamptz(3) not null,
      status text not null,
      actor text not null,
      actor_id text,
      note text
    );
    create index anomaly_events_anomaly_idx on mobility.anomaly_events (anomaly_id, at);

    create table mobility.pending_checks (
      transaction_id uuid not null references mobility.transactions(id) on delete cascade,
      code text not null,
      reason text not null,
      vehicle_id uuid,
      transacted_at timestamptz(3) not null,
      first_checked_at timestamptz(3) not null,
      last_checked_at timestamptz(3) not null,
      attempts integer not null default 1,
      primary key (transaction_id, code)
    );
    create index pending_checks_vehicle_idx on mobility.pending_checks (vehicle_id, transacted_at);

    create table mobility.late_positions (
      id bigserial primary key,
      vehicle_id uuid not null,
      recorded_at timestamptz(3) not null,
      latitude double precision not null,
      longitude double precision not null,
      source text not null,
      imported_at timestamptz(3) not null default now(),
      check (latitude between -90 and 90 and longitude between -180 and 180)
    );
    create index late_positions_vehicle_idx on mobility.late_positions (vehicle_id, recorded_at);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop table if exists mobility.late_positions, mobility.pending_checks, mobility.anomaly_events,
      mobility.anomalies, mobility.transactions cascade;
  `);
}

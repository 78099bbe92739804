/**
 * Rows of what trips and devices record, of the accounts' alert preferences and of the global
 * metric and log-fetch catalogs, built from a validated dataset (schema: dataset-activity.ts;
 * rules: validate-activity.ts). import.ts writes them in the import transaction, in
 * ACTIVITY_TABLES order (catalogs before the log fetches that refer to them), after the trips.
 */
import { randomUUID } from 'node:crypto';
import type { Dataset } from './dataset';
import type { Plan } from './validate';

type Row = Record<string, unknown>;

/** Insertion (foreign-key) order. */
export const ACTIVITY_TABLES = [
  'fleet.metrics',
  'fleet.logfetch_actions',
  'fleet.account_alert_preferences',
  'fleet.trip_harshes',
  'fleet.trip_overspeeds',
  'fleet.trip_metadata',
  'fleet.device_history',
  'fleet.device_fields',
  'fleet.readings',
  'fleet.battery_annotations',
  'fleet.device_log_fetches',
  'fleet.device_remote_diags',
  'fleet.device_profile_privacies',
  'fleet.device_profile_modes',
  'fleet.lpa_operations',
] as const;
export type ActivityTable = (typeof ACTIVITY_TABLES)[number];

const date = (iso: string) => new Date(iso);
const dateOrNull = (iso: string | null | undefined) => (iso ? new Date(iso) : null);

type ActivityRows = Record<ActivityTable, Row[]>;
type OrgPlan = Plan['organizations'][number];
type Organization = Dataset['organizations'][number];
type Device = Organization['devices'][number];

/** The dataset's catalogs shared by every organization: metrics and log-fetch actions. */
function pushCatalogs(rows: ActivityRows, dataset: Dataset, plan: Plan): void {
  for (const m of dataset.metrics)
    rows['fleet.metrics'].push({
      id: m.id,
      name: m.name,
      description: m.description,
      category: m.category,
      data_type: m.dataType,
      unit: m.unit ?? null,
      raw_unit: m.rawUnit ?? null,
      raw_factor: m.rawFactor,
    });
  dataset.logfetchActions.forEach((a, i) =>
    rows['fleet.logfetch_actions'].push({
      id: a.id,
      name: a.name,
      description: a.description,
      default_duration_minutes: a.defaultDurationMinutes ?? null,
      position: plan.logfetchPositions[i],
    }),
  );
}

function pushAlertPreferences(rows: ActivityRows, org: Organization, orgPlan: OrgPlan, now: Date): void {
  org.accounts.forEach((a, i) => {
    const p = a.alertPreference;
    if (!p) return;
    rows['fleet.account_alert_preferences'].push({
      account_id: orgPlan.accountIds[i],
      channels: [...new Set(p.channels)],
      minimum_severity: p.minimumSeverity,
      digest: p.digest,
      // null: the account's language (AlertPreference.language).
      language: p.language ?? null,
      quiet_hours_start: p.quietHoursStart ?? null,
      quiet_hours_end: p.quietHoursEnd ?? null,
      muted_types: [...new Set(p.mutedTypes)],
      updated_at: p.updatedAt ? date(p.updatedAt) : now,
    });
  });
}

/** Each trip's harsh events, overspeeds and metadata. */
function pushTripEvents(rows: ActivityRows, org: Organization, orgPlan: OrgPlan): void {
  org.trips.forEach((t, i) => {
    const tripId = orgPlan.tripIds[i]!;
    for (const h of t.harshes)
      rows['fleet.trip_harshes'].push({
        id: randomUUID(),
        trip_id: tripId,
        device_id: t.device,
        occurred_at: date(h.occurredAt),
        kind: h.kind,
        intensity_g: h.intensityG,
        speed_kmh: h.speedKmh,
        latitude: h.position.latitude,
        longitude: h.position.longitude,
      });
    for (const s of t.overspeeds)
      rows['fleet.trip_overspeeds'].push({
        id: randomUUID(),
        trip_id: tripId,
        device_id: t.device,
        started_at: date(s.startedAt),
        ended_at: date(s.endedAt),
        max_speed_kmh: s.maxSpeedKmh,
        speed_limit_kmh: s.speedLimitKmh,
        distance_m: Math.round(s.distanceKm * 1000),
        latitude: s.position.latitude,
        longitude: s.position.longitude,
      });
    for (const m of t.metadata) {
      const created = date(m.createdAt ?? t.endedAt);
      rows['fleet.trip_metadata'].push({
        id: randomUUID(),
        trip_id: tripId,
        key: m.key,
        value: m.value,
        created_at: created,
        updated_at: m.updatedAt ? date(m.updatedAt) : created,
      });
    }
  });
}

/** A device's history, readings and the fields they report (latest reading when not given). */
function pushHistoryAndReadings(rows: ActivityRows, d: Device, orgPlan: OrgPlan): void {
  const device_id = d.id;
  for (const h of d.history)
    rows['fleet.device_history'].push({
      id: randomUUID(),
      device_id,
      occurred_at: date(h.occurredAt),
      event: h.event,
      reason: h.reason ?? null,
      vehicle_id: h.vehicle ? orgPlan.resolveVehicle(h.vehicle) : null,
    });
  const latest = new Map<string, { at: number; value: number }>();
  for (const r of d.readings) {
    const at = Date.parse(r.recordedAt);
    if (at > (latest.get(r.field)?.at ?? -Infinity)) latest.set(r.field, { at, value: r.value });
    rows['fleet.readings'].push({
      id: randomUUID(),
      device_id,
      field: r.field,
      recorded_at: date(r.recordedAt),
      value: r.value,
      latitude: r.position?.latitude ?? null,
      longitude: r.position?.longitude ?? null,
    });
  }
  for (const f of d.fields) {
    const newest = latest.get(f.name);
    rows['fleet.device_fields'].push({
      device_id,
      name: f.name,
      unit: f.unit ?? null,
      last_value: f.lastValue ?? newest?.value ?? null,
      last_recorded_at: f.lastRecordedAt ? date(f.lastRecordedAt) : newest ? new Date(newest.at) : null,
    });
  }
}

/** A device's battery annotations and the operations run on it (log fetches, diagnostics, profile, eSIM). */
function pushDeviceOperations(rows: ActivityRows, d: Device, orgPlan: OrgPlan): void {
  const device_id = d.id;
  for (const b of d.batteryAnnotations)
    rows['fleet.battery_annotations'].push({
      id: randomUUID(),
      device_id,
      recorded_at: date(b.recordedAt),
      voltage: b.voltage,
      state: b.state,
    });
  for (const l of d.logFetches)
    rows['fleet.device_log_fetches'].push({
      id: randomUUID(),
      device_id,
      action_id: l.action,
      status: l.status,
      requested_by: l.requestedBy ? orgPlan.resolveAccount(l.requestedBy) : null,
      requested_at: date(l.requestedAt),
      completed_at: dateOrNull(l.completedAt),
      byte_size: l.byteSize ?? null,
      file_url: l.fileUrl ?? null,
    });
  for (const r of d.remoteDiags)
    rows['fleet.device_remote_diags'].push({
      id: randomUUID(),
      device_id,
      status: r.status,
      protocol: r.protocol ?? null,
      requested_at: date(r.requestedAt),
      completed_at: dateOrNull(r.completedAt),
      dtc_codes: r.dtcCodes,
      vin: r.vin ?? null,
      battery_voltage: r.batteryVoltage ?? null,
      odometer_km: r.odometerKm ?? null,
    });
  for (const p of d.profilePrivacies)
    rows['fleet.device_profile_privacies'].push({
      id: randomUUID(),
      device_id,
      level: p.level,
      started_at: date(p.startedAt),
      ended_at: dateOrNull(p.endedAt),
    });
  for (const m of d.profileModes)
    rows['fleet.device_profile_modes'].push({
      id: randomUUID(),
      device_id,
      mode: m.mode,
      started_at: date(m.startedAt),
      ended_at: dateOrNull(m.endedAt),
    });
  for (const l of d.lpaOperations)
    rows['fleet.lpa_operations'].push({
      id: randomUUID(),
      device_id,
      function_name: l.functionName,
      status: l.status,
      iccid: l.iccid?.toUpperCase() ?? null,
      activation_code: l.activationCode ?? null,
      smdp_address: l.smdpAddress ?? null,
      matching_id: l.matchingId ?? null,
      nickname: l.nickname ?? null,
      has_confirmation_code: l.hasConfirmationCode,
      requested_at: date(l.requestedAt),
      updated_at: date(l.updatedAt ?? l.requestedAt),
    });
}

export function buildActivityRows(dataset: Dataset, plan: Plan, now: Date): ActivityRows {
  const rows = Object.fromEntries(ACTIVITY_TABLES.map((t) => [t, [] as Row[]])) as ActivityRows;
  pushCatalogs(rows, dataset, plan);
  dataset.organizations.forEach((org, o) => {
    const orgPlan = plan.organizations[o]!;
    pushAlertPreferences(rows, org, orgPlan, now);
    pushTripEvents(rows, org, orgPlan);
    for (const d of org.devices) {
      pushHistoryAndReadings(rows, d, orgPlan);
      pushDeviceOperations(rows, d, orgPlan);
    }
  });
  return rows;
}

/** Services demo of devices: log fetches, remote diagnostics, profiles (privacy, modes) and eSIM (LPA) operations, on a share of the devices. */
import { uuidV5 } from '../ids';
import { LOGFETCH_ACTIONS } from './catalogs';
import { DAY, HOUR, MINUTE, type DeviceRow, type OrgContext } from './context';

/** Per device, in this order (one PRNG: the order is part of the demo). */
export function writeDeviceServices(ctx: OrgContext): void {
  ctx.orgDevices.forEach((d, index) => {
    writeLogFetch(ctx, d);
    writeRemoteDiag(ctx, d);
    writeProfilePrivacy(ctx, d);
    writeProfileModes(ctx, d, index);
    writeLpaOperations(ctx, d, index);
  });
}

/** A log fetch on ~8% of the devices. */
export function writeLogFetch(ctx: OrgContext, d: DeviceRow): void {
  const { rng, now, managers, push } = ctx;
  if (rng.chance(0.08)) {
    const action = rng.pick(LOGFETCH_ACTIONS)[0];
    const requested = now - rng.int(60, 60 * 24 * 60) * MINUTE;
    const status = rng.weighted([
      ['COMPLETED', 6],
      ['FAILED', 1],
      ['EXPIRED', 1],
      ['IN_PROGRESS', 1],
    ] as const);
    const completed = status === 'COMPLETED' || status === 'EXPIRED';
    push('fleet.device_log_fetches', {
      id: uuidV5(`log-fetch:${d.id}:0`),
      device_id: d.id,
      action_id: action,
      status,
      requested_by: managers.length > 0 ? rng.pick(managers) : null,
      requested_at: new Date(requested),
      completed_at: completed ? new Date(requested + rng.int(2, 90) * MINUTE) : null,
      byte_size: completed ? rng.int(20_000, 4_000_000) : null,
      file_url:
        status === 'COMPLETED'
          ? `https://files.fleetgraph.example/logs/${d.id}/${action.toLowerCase()}.tgz`
          : null,
    });
  }
}

/** A remote diagnosis on ~10% of the devices in a vehicle. */
export function writeRemoteDiag(ctx: OrgContext, d: DeviceRow): void {
  const { rng, now, vehicleById, push } = ctx;
  if (d.current_vehicle_id && rng.chance(0.1)) {
    const vehicle = vehicleById.get(d.current_vehicle_id);
    const requested = now - rng.int(60, 60 * 24 * 90) * MINUTE;
    const status = rng.weighted([
      ['COMPLETED', 8],
      ['FAILED', 1],
      ['NOT_SUPPORTED', 1],
    ] as const);
    push('fleet.device_remote_diags', {
      id: uuidV5(`remote-diag:${d.id}:0`),
      device_id: d.id,
      status,
      protocol: rng.pick(['ISO15765_11BIT', 'ISO15765_29BIT', 'J1939']),
      requested_at: new Date(requested),
      completed_at: status === 'COMPLETED' ? new Date(requested + rng.int(1, 10) * MINUTE) : null,
      dtc_codes:
        status === 'COMPLETED' && rng.chance(0.4)
          ? [rng.pick(['P0420', 'P0171', 'P0300', 'U0100', 'B1000'])]
          : [],
      vin: status === 'COMPLETED' ? (vehicle?.vin ?? null) : null,
      battery_voltage: status === 'COMPLETED' ? Number((11.8 + rng.next() * 2.6).toFixed(2)) : null,
      odometer_km: status === 'COMPLETED' ? rng.int(5_000, 250_000) : null,
    });
  }
}

/** The privacy history: FULL, and for ~20% a later switch to a stricter level. */
export function writeProfilePrivacy(ctx: OrgContext, d: DeviceRow): void {
  const { rng, now, push } = ctx;
  if (rng.chance(0.2)) {
    const switched = now - rng.int(1, 120) * DAY;
    push('fleet.device_profile_privacies', {
      id: uuidV5(`privacy:${d.id}:0`),
      device_id: d.id,
      level: 'FULL',
      started_at: d.created_at,
      ended_at: new Date(Math.max(switched, d.created_at.getTime())),
    });
    push('fleet.device_profile_privacies', {
      id: uuidV5(`privacy:${d.id}:1`),
      device_id: d.id,
      level: rng.pick(['NO_LOCATION', 'ANONYMOUS', 'PRIVATE']),
      started_at: new Date(Math.max(switched, d.created_at.getTime())),
      ended_at: null,
    });
  } else {
    push('fleet.device_profile_privacies', {
      id: uuidV5(`privacy:${d.id}:0`),
      device_id: d.id,
      level: 'FULL',
      started_at: d.created_at,
      ended_at: null,
    });
  }
}

/** The device mode (a quarter of the installed devices first in storage). */
export function writeProfileModes(ctx: OrgContext, d: DeviceRow, index: number): void {
  const { rng, push } = ctx;
  const mode = d.current_vehicle_id
    ? rng.weighted([
        ['NORMAL', 20],
        ['LOW_POWER', 2],
        ['MAINTENANCE', 1],
      ] as const)
    : 'STORAGE';
  // A quarter of the installed devices spent their first day in storage before installation.
  const stored = d.current_vehicle_id !== null && index % 4 === 1;
  const installedAt = stored ? new Date(d.created_at.getTime() + DAY) : d.created_at;
  if (stored)
    push('fleet.device_profile_modes', {
      id: uuidV5(`mode:${d.id}:storage`),
      device_id: d.id,
      mode: 'STORAGE',
      started_at: d.created_at,
      ended_at: installedAt,
    });
  push('fleet.device_profile_modes', {
    id: uuidV5(`mode:${d.id}:0`),
    device_id: d.id,
    mode,
    started_at: installedAt,
    ended_at: null,
  });
}

/** eSIM operations: a download-and-enable on every 20th device, a download then rename on others. */
export function writeLpaOperations(ctx: OrgContext, d: DeviceRow, index: number): void {
  const { rng, french, push, at } = ctx;
  if (index % 20 === 0) {
    const iccid = `8949${String(rng.int(0, 999_999_999)).padStart(9, '0')}${String(rng.int(0, 9_999_999)).padStart(7, '0')}`;
    const requestedAt = at(rng.int(1, 200));
    push('fleet.lpa_operations', {
      id: uuidV5(`lpa:${d.id}:0`),
      device_id: d.id,
      function_name: 'DOWNLOAD_AND_ENABLE_PROFILE',
      status: rng.weighted([
        ['SUCCEEDED', 8],
        ['FAILED', 1],
        ['IN_PROGRESS', 1],
      ] as const),
      iccid,
      activation_code: `LPA:1$smdp.fleetgraph.example$${uuidV5(`lpa-code:${d.id}`).slice(0, 18).toUpperCase()}`,
      has_confirmation_code: rng.chance(0.3),
      requested_at: requestedAt,
      updated_at: new Date(requestedAt.getTime() + rng.int(1, 30) * MINUTE),
    });
  }
  if (index % 20 === 10) {
    // A profile downloaded by SM-DP+ address and matching id, then renamed.
    const digits = BigInt(`0x${uuidV5(`lpa-iccid:${d.id}`).replace(/-/g, '').slice(0, 15)}`)
      .toString()
      .slice(0, 15);
    const iccid = `8933${digits.padStart(15, '0')}`;
    const requestedAt = new Date(d.created_at.getTime() + 2 * DAY);
    push('fleet.lpa_operations', {
      id: uuidV5(`lpa:${d.id}:download`),
      device_id: d.id,
      function_name: 'DOWNLOAD_PROFILE',
      status: 'SUCCEEDED',
      iccid,
      smdp_address: 'smdp.fleetgraph.example',
      matching_id: uuidV5(`lpa-matching:${d.id}`).slice(0, 23).toUpperCase(),
      has_confirmation_code: false,
      requested_at: requestedAt,
      updated_at: new Date(requestedAt.getTime() + 4 * MINUTE),
    });
    push('fleet.lpa_operations', {
      id: uuidV5(`lpa:${d.id}:nickname`),
      device_id: d.id,
      function_name: 'SET_NICKNAME',
      status: 'SUCCEEDED',
      iccid,
      nickname: french ? 'Profil flotte' : 'Fleet profile',
      has_confirmation_code: false,
      requested_at: new Date(requestedAt.getTime() + HOUR),
      updated_at: new Date(requestedAt.getTime() + HOUR + MINUTE),
    });
  }
}

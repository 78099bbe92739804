/**
 * Demo data of fleet-core's services domains, generated from the core rows already written in the
 * same transaction (organizations, accounts, groups, devices, vehicles): account roles and alert
 * preferences, descriptions, alert templates with attachments, vehicle alerts and feedbacks,
 * workshops, driver services, bookings, onboarding providers/distributors/staff/requests, client
 * identifications, update campaigns, the metric and log-fetch catalogs, device log fetches,
 * remote diagnostics, profile privacy and modes, and eSIM (LPA) operations.
 *
 * Deterministic like the core seed: ids are name-based UUIDs, random choices come from a PRNG
 * seeded per organization, timestamps are offsets from `now`.
 */
import type { Knex } from 'knex';
import { Rng, uuidV5 } from './ids';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
type Row = Record<string, unknown>;

export interface ServicesSeedOptions {
  /** reference time of every timestamp (ms) */
  now: number;
  onBatch?: (table: string, inserted: number) => void;
}

/** Row counts per table written by seedServices. */
export type ServicesCounts = Record<string, number>;

const WORKSHOPS = [
  {
    key: 'hh',
    name: 'Werkstatt Hafen Hamburg',
    address: 'Grosse Elbstrasse 145',
    postal: '22767',
    city: 'Hamburg',
    country: 'DE',
    lat: 53.546,
    lng: 9.938,
  },
  {
    key: 'b',
    name: 'Autoservice Spree Berlin',
    address: 'Stralauer Allee 12',
    postal: '10245',
    city: 'Berlin',
    country: 'DE',
    lat: 52.501,
    lng: 13.447,
  },
  {
    key: 'm',
    name: 'KFZ-Meister Isar',
    address: 'Landsberger Strasse 300',
    postal: '80687',
    city: 'Muenchen',
    country: 'DE',
    lat: 48.142,
    lng: 11.508,
  },
  {
    key: 'k',
    name: 'Rhein Garage Koeln',
    address: 'Vitalisstrasse 67',
    postal: '50827',
    city: 'Koeln',
    country: 'DE',
    lat: 50.963,
    lng: 6.891,
  },
  {
    key: 'f',
    name: 'Main Fleet Service Frankfurt',
    address: 'Hanauer Landstrasse 200',
    postal: '60314',
    city: 'Frankfurt am Main',
    country: 'DE',
    lat: 50.113,
    lng: 8.716,
  },
  {
    key: 'p',
    name: 'Garage de la Villette',
    address: '45 avenue Jean Jaures',
    postal: '75019',
    city: 'Paris',
    country: 'FR',
    lat: 48.884,
    lng: 2.374,
  },
  {
    key: 'l',
    name: 'Atelier Rhone Lyon',
    address: '12 rue de Gerland',
    postal: '69007',
    city: 'Lyon',
    country: 'FR',
    lat: 45.735,
    lng: 4.834,
  },
  {
    key: 'ma',
    name: 'Garage du Vieux-Port',
    address: '8 boulevard de Paris',
    postal: '13002',
    city: 'Marseille',
    country: 'FR',
    lat: 43.309,
    lng: 5.372,
  },
] as const;

const PROVIDERS = [
  {
    code: 'NORAUTO',
    name: 'Norauto',
    website: 'https://www.norauto.example',
    support: 'pro@norauto.example',
  },
  { code: 'SPEEDY', name: 'Speedy', website: 'https://www.speedy.example', support: null },
  {
    code: 'BOSCH_CS',
    name: 'Bosch Car Service',
    website: 'https://www.boschcarservice.example',
    support: 'fleet@bosch-cs.example',
  },
  {
    code: 'EUROMASTER',
    name: 'Euromaster',
    website: 'https://www.euromaster.example',
    support: 'fleet@euromaster.example',
  },
] as const;

export const METRICS = [
  [
    'obd.vehicle_speed',
    'vehicle_speed',
    'Vehicle speed from the vehicle bus',
    'DRIVING',
    'FLOAT',
    'km/h',
    null,
    1,
  ],
  [
    'gps.speed',
    'gps_speed',
    'Ground speed from the GNSS receiver',
    'POSITION',
    'FLOAT',
    'km/h',
    '0.01 m/s',
    0.036,
  ],
  [
    'gps.position',
    'gps_position',
    'Latitude and longitude (WGS 84)',
    'POSITION',
    'COORDINATES',
    null,
    null,
    1,
  ],
  ['gps.heading', 'gps_heading', 'Heading, clockwise from north', 'POSITION', 'INTEGER', 'deg', null, 1],
  ['gps.satellites', 'gps_satellites', 'Satellites in use', 'POSITION', 'INTEGER', null, null, 1],
  ['obd.engine_rpm', 'engine_rpm', 'Engine speed', 'ENGINE', 'FLOAT', 'rpm', '0.25 rpm', 0.25],
  ['obd.engine_load', 'engine_load', 'Calculated engine load', 'ENGINE', 'FLOAT', '%', '0.392 %', 0.392],
  [
    'obd.coolant_temperature',
    'coolant_temperature',
    'Engine coolant temperature',
    'ENGINE',
    'INTEGER',
    'degC',
    null,
    1,
  ],
  ['obd.fuel_level', 'fuel_level', 'Fuel tank level', 'FUEL', 'FLOAT', '%', '0.4 %', 0.4],
  ['obd.fuel_rate', 'fuel_rate', 'Engine fuel rate', 'FUEL', 'FLOAT', 'L/h', '0.05 L/h', 0.05],
  [
    'battery.voltage',
    'battery_voltage',
    'Auxiliary (12/24 V) battery voltage',
    'BATTERY',
    'FLOAT',
    'V',
    'mV',
    0.001,
  ],
  [
    'ev.state_of_charge',
    'ev_state_of_charge',
    'Traction battery state of charge',
    'BATTERY',
    'FLOAT',
    '%',
    null,
    1,
  ],
  ['ev.range', 'ev_range', 'Remaining electric range', 'BATTERY', 'INTEGER', 'km', null, 1],
  ['obd.odometer', 'odometer', 'Odometer', 'DRIVING', 'FLOAT', 'km', 'hm', 0.1],
  ['obd.mil_status', 'mil_status', 'Malfunction indicator lamp on', 'DIAGNOSTICS', 'BOOLEAN', null, null, 1],
  ['obd.dtc_count', 'dtc_count', 'Stored fault codes', 'DIAGNOSTICS', 'INTEGER', null, null, 1],
  [
    'env.outside_temperature',
    'outside_temperature',
    'Outside air temperature',
    'ENVIRONMENT',
    'FLOAT',
    'degC',
    '0.1 degC',
    0.1,
  ],
  [
    'env.cargo_temperature',
    'cargo_temperature',
    'Cargo area temperature (cold chain)',
    'ENVIRONMENT',
    'FLOAT',
    'degC',
    '0.1 degC',
    0.1,
  ],
  ['device.gsm_signal', 'gsm_signal', 'Cellular signal strength', 'DEVICE', 'INTEGER', 'dBm', null, 1],
  [
    'device.power_voltage',
    'device_power_voltage',
    'Supply voltage at the device',
    'DEVICE',
    'FLOAT',
    'V',
    'mV',
    0.001,
  ],
] as const;

export const LOGFETCH_ACTIONS = [
  ['SYSTEM_LOGS', 'System logs', 'Operating system and application logs of the device', 1440],
  ['CAN_TRACE', 'CAN trace', 'Raw frames of the vehicle bus', 10],
  ['GPS_TRACE', 'GPS trace', 'Raw NMEA output of the GNSS receiver', 60],
  ['MODEM_LOGS', 'Modem logs', 'Cellular modem and network registration events', null],
  ['CRASH_DUMP', 'Crash dump', 'Memory dump of the last firmware crash', null],
] as const;

const ALERTS: ReadonlyArray<{
  type: string;
  severity: string;
  weight: number;
  message: (rng: Rng) => string;
}> = [
  {
    type: 'LOW_BATTERY',
    severity: 'WARNING',
    weight: 5,
    message: (r) => `Battery at ${(11 + r.next()).toFixed(1)} V`,
  },
  {
    type: 'ENGINE_FAULT',
    severity: 'CRITICAL',
    weight: 3,
    message: (r) => `Fault code ${r.pick(['P0420', 'P0171', 'P0300', 'P0128', 'P0401', 'P2463'])} stored`,
  },
  {
    type: 'MAINTENANCE_DUE',
    severity: 'INFO',
    weight: 4,
    message: (r) => `Service due in ${r.int(1, 15) * 100} km`,
  },
  { type: 'TOWING', severity: 'CRITICAL', weight: 1, message: () => 'Vehicle moving with ignition off' },
  {
    type: 'CRASH_DETECTED',
    severity: 'CRITICAL',
    weight: 1,
    message: (r) => `Impact of ${(2 + r.next() * 4).toFixed(1)} g detected`,
  },
  { type: 'UNPLUGGED', severity: 'WARNING', weight: 2, message: () => 'Device unplugged from the OBD port' },
  {
    type: 'GEOFENCE_EXIT',
    severity: 'WARNING',
    weight: 2,
    message: (r) => `Left zone ${r.pick(['Depot', 'City centre', 'Customer site'])}`,
  },
  {
    type: 'OVERSPEED',
    severity: 'WARNING',
    weight: 4,
    message: (r) => `${r.int(95, 150)} km/h in a ${r.pick([50, 80, 90])} km/h zone`,
  },
  { type: 'FUEL_LEVEL_LOW', severity: 'INFO', weight: 3, message: (r) => `Fuel at ${r.int(5, 12)} %` },
  {
    type: 'TIRE_PRESSURE_LOW',
    severity: 'WARNING',
    weight: 2,
    message: (r) =>
      `Tyre ${r.pick(['front left', 'front right', 'rear left', 'rear right'])} at ${(1.6 + r.next() * 0.4).toFixed(1)} bar`,
  },
  {
    type: 'COOLANT_TEMPERATURE_HIGH',
    severity: 'CRITICAL',
    weight: 1,
    message: (r) => `Coolant at ${r.int(108, 120)} degC`,
  },
  {
    type: 'EXCESSIVE_IDLING',
    severity: 'INFO',
    weight: 3,
    message: (r) => `Idling for ${r.int(10, 45)} minutes`,
  },
];

const DRIVER_SERVICES = [
  ['Tyre change', 'Seasonal tyre change, balancing and storage'],
  ['Oil service', 'Engine oil and filter change with a 30-point check'],
  ['Brake inspection', 'Pads, discs and brake fluid check'],
  ['Windscreen repair', 'Chip repair or windscreen replacement'],
  ['Annual inspection', 'Preparation and presentation to the statutory roadworthiness test'],
] as const;

export async function seedServices(
  trx: Knex | Knex.Transaction,
  options: ServicesSeedOptions,
): Promise<ServicesCounts> {
  const { now } = options;
  const rows: Record<string, Row[]> = {
    'fleet.onboarding_providers': [],
    'fleet.workshops': [],
    'fleet.metrics': [],
    'fleet.logfetch_actions': [],
    'fleet.account_roles': [],
    'fleet.account_alert_preferences': [],
    'fleet.descriptions': [],
    'fleet.alert_templates': [],
    'fleet.alert_attachments': [],
    'fleet.vehicle_alerts': [],
    'fleet.vehicle_alert_feedbacks': [],
    'fleet.organization_workshops': [],
    'fleet.driver_services': [],
    'fleet.driver_service_workshops': [],
    'fleet.bookings': [],
    'fleet.onboarding_distributors': [],
    'fleet.onboarding_staff': [],
    'fleet.onboarding_requests': [],
    'fleet.client_identifications': [],
    'fleet.campaigns': [],
    'fleet.campaign_devices': [],
    'fleet.device_log_fetches': [],
    'fleet.device_remote_diags': [],
    'fleet.device_profile_privacies': [],
    'fleet.device_profile_modes': [],
    'fleet.lpa_operations': [],
  };
  const push = (table: string, row: Row) => rows[table]!.push(row);

  // Global catalogs (inserted if absent: an import may already have created them).
  WORKSHOPS.forEach((w, i) => {
    push('fleet.workshops', {
      id: uuidV5(`workshop:${w.key}`),
      name: w.name,
      address: w.address,
      postal_code: w.postal,
      city: w.city,
      country_code: w.country,
      phone: w.country === 'DE' ? `+49${w.postal}${w.key.length}1` : `+33${w.postal}12`,
      email: `service@${w.name.toLowerCase().replace(/[^a-z]+/g, '-')}.example`,
      // Every other shop publishes a website.
      website: i % 2 === 0 ? `https://www.${w.name.toLowerCase().replace(/[^a-z]+/g, '-')}.example` : null,
      latitude: w.lat,
      longitude: w.lng,
      created_at: new Date(now - 900 * DAY),
    });
  });
  for (const p of PROVIDERS) {
    push('fleet.onboarding_providers', {
      id: uuidV5(`provider:${p.code}`),
      code: p.code,
      name: p.name,
      website: p.website,
      support_email: p.support,
    });
  }
  for (const [id, name, description, category, dataType, unit, rawUnit, factor] of METRICS) {
    push('fleet.metrics', {
      id,
      name,
      description,
      category,
      data_type: dataType,
      unit,
      raw_unit: rawUnit,
      raw_factor: factor,
    });
  }
  LOGFETCH_ACTIONS.forEach(([id, name, description, minutes], i) =>
    push('fleet.logfetch_actions', {
      id,
      name,
      description,
      default_duration_minutes: minutes,
      position: i + 1,
    }),
  );

  const organizations: Array<{ id: string; name: string }> = await trx('fleet.organizations')
    .select('id', 'name')
    .orderBy('id');
  const accounts: Array<{
    id: string;
    organization_id: string;
    email: string;
    full_name: string;
    phone: string | null;
    language: string;
  }> = await trx('fleet.accounts')
    .select('id', 'organization_id', 'email', 'full_name', 'phone', 'language')
    .orderBy('id');
  const groups: Array<{ id: string; organization_id: string; label: string; hierarchy_level: string }> =
    await trx('fleet.groups').select('id', 'organization_id', 'label', 'hierarchy_level').orderBy('id');
  const devices: Array<{
    id: string;
    organization_id: string;
    current_vehicle_id: string | null;
    onboarded: boolean;
    created_at: Date;
  }> = await trx('fleet.devices')
    .select('id', 'organization_id', 'current_vehicle_id', 'onboarded', 'created_at')
    .orderBy('id');
  const vehicles: Array<{
    id: string;
    organization_id: string;
    vin: string | null;
    plate: string | null;
    make: string | null;
    model: string | null;
    model_year: number | null;
  }> = await trx('fleet.vehicles')
    .select('id', 'organization_id', 'vin', 'plate', 'make', 'model', 'model_year')
    .orderBy('id');
  const vehicleById = new Map(vehicles.map((v) => [v.id, v]));
  const drivers: Array<{ id: string; organization_id: string }> = await trx('fleet.drivers')
    .select('id', 'organization_id')
    .orderBy('id');

  for (const org of organizations) {
    const rng = new Rng(`fleetgraph-seed:services:${org.id}`);
    const orgAccounts = accounts.filter((a) => a.organization_id === org.id);
    const orgGroups = groups.filter((g) => g.organization_id === org.id);
    const orgDevices = devices.filter((d) => d.organization_id === org.id);
    const orgVehicles = vehicles.filter((v) => v.organization_id === org.id);
    if (orgAccounts.length === 0) continue;
    const french = orgAccounts[0]!.language === 'FR';
    const at = (daysAgo: number) => new Date(now - Math.round(daysAgo * DAY));

    // Roles and alert preferences.
    const root = orgGroups.find((g) => g.hierarchy_level === 'COMPANY');
    const rootMembers = new Set<string>(
      root ? await trx('fleet.group_accounts').where('group_id', root.id).pluck('account_id') : [],
    );
    const managers: string[] = [];
    // Members of the root group got their roles at onboarding; the first of them granted the others'.
    const admin = orgAccounts.find((a) => rootMembers.has(a.id))?.id ?? null;
    for (const a of orgAccounts) {
      const roles = rootMembers.has(a.id)
        ? ['ADMIN', 'FLEET_MANAGER', 'BILLING']
        : a.email.startsWith('dispatcher.')
          ? ['DISPATCHER']
          : a.email.startsWith('manager.')
            ? ['FLEET_MANAGER', 'WORKSHOP_MANAGER']
            : [rng.pick(['VIEWER', 'DISPATCHER', 'DRIVER'])];
      if (roles.includes('ADMIN') || roles.includes('FLEET_MANAGER')) managers.push(a.id);
      for (const role of roles)
        push('fleet.account_roles', {
          account_id: a.id,
          role,
          granted_at: at(rng.int(30, 700)),
          granted_by: rootMembers.has(a.id) ? null : admin,
        });
      push('fleet.account_alert_preferences', {
        account_id: a.id,
        channels: rng.chance(0.5) ? ['EMAIL', 'PUSH'] : rng.chance(0.5) ? ['EMAIL'] : ['SMS', 'PUSH'],
        minimum_severity: rng.pick(['INFO', 'WARNING', 'WARNING', 'CRITICAL']),
        digest: rng.pick(['NONE', 'NONE', 'DAILY', 'HOURLY', 'WEEKLY']),
        language: a.language,
        quiet_hours_start: rng.chance(0.6) ? '22:00' : null,
        quiet_hours_end: rng.chance(0.6) ? '06:00' : null,
        muted_types: rng.chance(0.3) ? ['EXCESSIVE_IDLING'] : [],
        updated_at: at(rng.int(1, 200)),
      });
    }

    // Descriptions.
    const description = (
      subject: string,
      subjectId: string,
      label: string,
      value: string,
      source = 'MANUAL',
    ) =>
      push('fleet.descriptions', {
        id: uuidV5(`description:${subject}:${subjectId}:${label}`),
        organization_id: org.id,
        subject,
        subject_id: subjectId,
        label,
        value,
        source,
        created_at: at(rng.int(30, 400)),
        updated_at: at(rng.int(0, 30)),
      });
    orgGroups.forEach((g, i) => {
      description('GROUP', g.id, french ? 'Centre de cout' : 'Cost centre', `CC-${4000 + i}`, 'ERP');
      if (g.hierarchy_level === 'DEPOT')
        description('GROUP', g.id, french ? 'Horaires' : 'Opening hours', 'Mo-Fr 06:00-20:00');
    });
    orgVehicles.forEach((v, i) => {
      description(
        'VEHICLE',
        v.id,
        french ? 'Contrat de location' : 'Lease contract',
        `LC-${org.name.slice(0, 2).toUpperCase()}-${10000 + i}`,
        'IMPORT',
      );
      if (rng.chance(0.3))
        description(
          'VEHICLE',
          v.id,
          french ? 'Carte carburant' : 'Fuel card',
          `FC-${rng.int(100000, 999999)}`,
        );
    });
    for (const d of orgDevices) {
      if (rng.chance(0.3))
        description('DEVICE', d.id, french ? 'Installateur' : 'Installer', rng.pick(WORKSHOPS).name);
    }
    for (const a of orgAccounts)
      if (managers.includes(a.id))
        description(
          'ACCOUNT',
          a.id,
          french ? 'Service' : 'Department',
          french ? 'Exploitation' : 'Fleet operations',
        );

    // Alert templates.
    const templates = [
      ['battery-low-email', 'email', 'HTML', 'Battery low on {{vehicle.plate}}: {{alert.message}}'],
      [
        'engine-fault-email',
        'email',
        'HTML',
        'Engine fault on {{vehicle.plate}}: {{alert.message}}. Book a workshop: {{links.booking}}',
      ],
      ['crash-sms', 'sms', 'TEXT', 'CRASH {{vehicle.plate}} at {{alert.position}}. Call the driver now.'],
      ['maintenance-push', 'push', 'TEXT', '{{vehicle.plate}}: {{alert.message}}'],
      ['towing-sms', 'sms', 'TEXT', 'Possible towing of {{vehicle.plate}} near {{alert.position}}'],
      [
        'generic-webhook',
        'webhook',
        'JSON',
        '{"type":"{{alert.type}}","vehicle":"{{vehicle.id}}","message":"{{alert.message}}"}',
      ],
    ] as const;
    for (const [name, channel, contentType, definition] of templates) {
      const id = uuidV5(`alert-template:${org.id}:${name}`);
      push('fleet.alert_templates', {
        id,
        organization_id: org.id,
        name,
        version: `1.${rng.int(0, 4)}.0`,
        content_type: contentType,
        default_context: {
          company: org.name,
          supportPhone: french ? '+33 1 00 00 00 00' : '+49 40 000000',
        },
        locked: channel === 'sms',
        channel_name: channel,
        definition,
        created_at: at(rng.int(200, 600)),
        updated_at: at(rng.int(1, 100)),
      });
      if (channel === 'email') {
        ['logo.png', 'what-to-do.pdf'].forEach((filename, i) =>
          push('fleet.alert_attachments', {
            id: uuidV5(`alert-attachment:${id}:${filename}`),
            template_id: id,
            filename,
            content_type: filename.endsWith('.pdf') ? 'application/pdf' : 'image/png',
            byte_size: i === 0 ? 14_230 : 182_944,
            url: `https://files.fleetgraph.example/templates/${id}/${filename}`,
            created_at: at(rng.int(100, 200)),
          }),
        );
      }
    }

    // Vehicle alerts over the last 30 days and feedbacks on some.
    for (const d of orgDevices) {
      if (!d.current_vehicle_id) continue;
      const count = rng.weighted([
        [0, 3],
        [1, 3],
        [2, 2],
        [3, 1],
        [5, 1],
      ] as const);
      for (let i = 0; i < count; i++) {
        const kind = rng.weighted(ALERTS.map((a) => [a, a.weight] as const));
        const started = now - rng.int(10, 30 * 24 * 60) * MINUTE;
        const ageDays = (now - started) / DAY;
        const status =
          ageDays > 3
            ? rng.pick(['RESOLVED', 'RESOLVED', 'DISMISSED', 'ACKNOWLEDGED'])
            : rng.pick(['ACTIVE', 'ACTIVE', 'ACKNOWLEDGED']);
        const id = uuidV5(`vehicle-alert:${d.id}:${i}`);
        push('fleet.vehicle_alerts', {
          id,
          organization_id: org.id,
          device_id: d.id,
          vehicle_id: d.current_vehicle_id,
          type: kind.type,
          severity: kind.severity,
          status,
          message: kind.message(rng),
          started_at: new Date(started),
          ended_at:
            status === 'RESOLVED' || status === 'DISMISSED'
              ? new Date(started + rng.int(5, 600) * MINUTE)
              : null,
          latitude: french ? 45.7 + rng.next() * 3 : 48.1 + rng.next() * 5.5,
          longitude: french ? 2.3 + rng.next() * 3 : 6.9 + rng.next() * 6.5,
          created_at: new Date(started),
          updated_at: new Date(started + rng.int(0, 600) * MINUTE),
        });
        if (rng.chance(0.25)) {
          push('fleet.vehicle_alert_feedbacks', {
            id: uuidV5(`alert-feedback:${id}`),
            alert_id: id,
            account_id: rng.pick(orgAccounts).id,
            status: rng.weighted([
              ['CONFIRMED', 5],
              ['FIXED', 3],
              ['FALSE_POSITIVE', 2],
              ['NOT_RELEVANT', 1],
            ] as const),
            language: orgAccounts[0]!.language,
            comment: rng.chance(0.5)
              ? rng.pick(
                  french
                    ? ['Vu avec le conducteur', 'Reparation planifiee', 'Fausse alerte']
                    : ['Checked with the driver', 'Workshop booked', 'Sensor glitch'],
                )
              : null,
            created_at: new Date(started + rng.int(30, 2 * 24 * 60) * MINUTE),
          });
        }
      }
    }

    // Workshops of the organization, driver services, bookings.
    const orgWorkshops = WORKSHOPS.filter((w) => (w.country === 'FR') === french).map((w) =>
      uuidV5(`workshop:${w.key}`),
    );
    for (const workshopId of orgWorkshops)
      push('fleet.organization_workshops', { organization_id: org.id, workshop_id: workshopId });
    for (const [label, descriptionText] of DRIVER_SERVICES) {
      const id = uuidV5(`driver-service:${org.id}:${label}`);
      push('fleet.driver_services', {
        id,
        organization_id: org.id,
        label,
        description: descriptionText,
        created_at: at(rng.int(100, 500)),
      });
      for (const workshopId of orgWorkshops) {
        if (rng.chance(0.6))
          push('fleet.driver_service_workshops', { driver_service_id: id, workshop_id: workshopId });
      }
    }
    const bookingCount = Math.max(4, Math.round(orgVehicles.length / 6));
    for (let i = 0; i < bookingCount && orgVehicles.length > 0; i++) {
      const vehicle = rng.pick(orgVehicles);
      const user = rng.pick(orgAccounts);
      const daysFromNow = rng.int(-60, 30);
      const date = new Date(now + daysFromNow * DAY + rng.int(7, 17) * HOUR);
      const status =
        daysFromNow < 0
          ? rng.pick(['COMPLETED', 'COMPLETED', 'CANCELLED'])
          : daysFromNow === 0
            ? 'IN_PROGRESS'
            : rng.pick(['PENDING', 'CONFIRMED', 'CONFIRMED', 'REJECTED']);
      const workshopId = rng.pick(orgWorkshops);
      const workshop = WORKSHOPS.find((w) => uuidV5(`workshop:${w.key}`) === workshopId)!;
      const id = uuidV5(`booking:${org.id}:${i}`);
      push('fleet.bookings', {
        id,
        organization_id: org.id,
        account_id: user.id,
        vehicle_id: vehicle.id,
        workshop_id: workshopId,
        plate_number: vehicle.plate,
        booking_date: date,
        status,
        quotation_ids: status === 'PENDING' ? [] : [`Q-${id.slice(0, 8).toUpperCase()}`],
        vehicle_make: vehicle.make,
        vehicle_model: vehicle.model,
        vehicle_year: vehicle.model_year != null ? String(vehicle.model_year) : null,
        vin: vehicle.vin,
        city: workshop.city,
        country: workshop.country,
        additional_information: rng.pick([
          null,
          'Warning light on the dashboard',
          'Noise when braking',
          'Please call before starting work',
        ]),
        preferred_language: user.language,
        contact_method: rng.pick(['SMS', 'EMAIL', 'PHONE', 'WHATSAPP']),
        user_email: user.email,
        user_name: user.full_name,
        user_phone_number: user.phone,
        created_at: new Date(Math.min(now, date.getTime()) - rng.int(1, 20) * DAY),
        updated_at: new Date(Math.min(now, date.getTime())),
      });
    }

    // Onboarding: distributors, staff, requests; client identifications.
    const distributorIds: string[] = [];
    const distributorPlan = french
      ? [
          ['NORAUTO', 'Norauto Lyon Gerland', true],
          ['SPEEDY', 'Speedy Paris 19', true],
        ]
      : [
          ['BOSCH_CS', 'Bosch Car Service Hamburg', true],
          ['EUROMASTER', 'Euromaster Berlin', true],
          ['NORAUTO', 'Norauto Koeln', false],
        ];
    distributorPlan.forEach(([code, label, active], i) => {
      const id = uuidV5(`distributor:${org.id}:${label}`);
      distributorIds.push(id);
      push('fleet.onboarding_distributors', {
        id,
        organization_id: org.id,
        label,
        provider_id: uuidV5(`provider:${code}`),
        is_active: active,
        workshop_id: orgWorkshops[i % orgWorkshops.length],
        provider_workshop_id: `${code}-${String(100 + i)}`,
        created_at: at(rng.int(300, 800)),
      });
      const staffNames = french
        ? ['Julie Martin', 'Karim Benali', 'Sophie Bernard', 'Hugo Petit']
        : ['Klaus Weber', 'Miriam Koch', 'Ali Yilmaz', 'Petra Schulz', 'Jan Hoffmann'];
      staffNames.slice(0, 3 + (i % 2)).forEach((name, s) =>
        push('fleet.onboarding_staff', {
          id: uuidV5(`onboarding-staff:${id}:${name}`),
          distributor_id: id,
          full_name: name,
          email: `${name.toLowerCase().replace(/\s+/g, '.')}@${String(code).toLowerCase()}.example`,
          phone: rng.chance(0.7)
            ? french
              ? `+336${rng.int(10000000, 99999999)}`
              : `+49160${rng.int(1000000, 9999999)}`
            : null,
          role: s === 0 ? 'MANAGER' : rng.pick(['TECHNICIAN', 'TECHNICIAN', 'SALES', 'SUPPORT']),
          active: rng.chance(0.9),
          created_at: at(rng.int(30, 600)),
        }),
      );
    });
    const activeDistributors = distributorIds.slice(0, 2);
    for (const d of orgDevices) {
      if (!d.onboarded || !rng.chance(0.5)) continue;
      const requested = d.created_at.getTime() - rng.int(3, 20) * DAY;
      const vehicle = d.current_vehicle_id ? vehicleById.get(d.current_vehicle_id) : undefined;
      push('fleet.onboarding_requests', {
        id: uuidV5(`onboarding-request:${d.id}`),
        distributor_id: rng.pick(activeDistributors),
        device_id: d.id,
        status: 'COMPLETED',
        plate: vehicle?.plate ?? null,
        vin: vehicle?.vin ?? null,
        notes: rng.pick([null, 'Installed behind the glove box', 'OBD extension cable used']),
        requested_at: new Date(requested),
        scheduled_at: new Date(requested + 2 * DAY),
        completed_at: new Date(d.created_at),
      });
    }
    for (let i = 0; i < 3; i++) {
      const requested = now - rng.int(1, 10) * DAY;
      push('fleet.onboarding_requests', {
        id: uuidV5(`onboarding-request:${org.id}:open:${i}`),
        distributor_id: rng.pick(activeDistributors),
        device_id: null,
        status: ['PENDING', 'SCHEDULED', 'CANCELLED'][i],
        plate: orgVehicles[i]?.plate ?? null,
        vin: null,
        notes: null,
        requested_at: new Date(requested),
        scheduled_at: i === 1 ? new Date(now + rng.int(1, 7) * DAY) : null,
        completed_at: null,
      });
    }
    const clientCount = 3 + Math.floor(orgDevices.length / 100);
    for (let i = 0; i < clientCount; i++) {
      const revoked = i === 1;
      push('fleet.client_identifications', {
        id: uuidV5(`client-identification:${org.id}:${i}`),
        organization_id: org.id,
        code: `${org.name.slice(0, 3).toUpperCase()}-${String(i + 1).padStart(4, '0')}`,
        label: `${org.name} ${orgGroups[i % orgGroups.length]?.label ?? 'fleet'}`,
        distributor_id: i === 2 ? null : distributorIds[i % distributorIds.length],
        client_reference: `C-${rng.int(10000, 99999)}`,
        default_account_id: orgAccounts[i % orgAccounts.length]!.id,
        usable: !revoked && rng.chance(0.9),
        revoked,
        created_at: at(rng.int(60, 700)),
        updated_at: at(rng.int(0, 60)),
      });
    }

    // Update campaigns (one archived) with device states.
    const campaigns = [
      ['Firmware 5.1 rollout', 'IN_PROGRESS', 12, null, ['fw-5.1.0']],
      ['Low-power profile winter', 'AVAILABLE_UPDATE', 3, null, ['cfg-lowpower-w1', 'cfg-lowpower-w2']],
      ['Firmware 4.8 rollout', 'COMPLETED', 150, 90, ['fw-4.8.2']],
    ] as const;
    for (const [name, status, createdDaysAgo, archivedDaysAgo, configurations] of campaigns) {
      const id = uuidV5(`campaign:${org.id}:${name}`);
      push('fleet.campaigns', {
        id,
        organization_id: org.id,
        name,
        status,
        configurations: [...configurations],
        archived_at: archivedDaysAgo == null ? null : at(archivedDaysAgo),
        created_at: at(createdDaysAgo),
      });
      for (const d of orgDevices.slice(0, 500)) {
        if (status === 'AVAILABLE_UPDATE' && !rng.chance(0.3)) continue;
        const deviceStatus =
          status === 'COMPLETED'
            ? rng.weighted([
                ['UP_TO_DATE', 18],
                ['SKIPPED', 1],
                ['FAILED', 1],
              ] as const)
            : status === 'AVAILABLE_UPDATE'
              ? 'PENDING'
              : rng.weighted([
                  ['UP_TO_DATE', 6],
                  ['DOWNLOADING', 2],
                  ['INSTALLING', 1],
                  ['PENDING', 3],
                  ['FAILED', 1],
                ] as const);
        push('fleet.campaign_devices', {
          campaign_id: id,
          device_id: d.id,
          status: deviceStatus,
          error_message:
            deviceStatus === 'FAILED'
              ? rng.pick(['download timeout', 'signature check failed', 'not enough storage'])
              : null,
          updated_at: at(rng.int(0, Math.min(createdDaysAgo, 30))),
        });
      }
    }

    // Device diagnostics, profiles and eSIM operations on a share of the devices.
    orgDevices.forEach((d, index) => {
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
    });

    // Drivers' licence classes (written last: the rows above keep their generated values).
    drivers
      .filter((driver) => driver.organization_id === org.id)
      .forEach((driver, i) => {
        if (i % 3 === 0)
          description('DRIVER', driver.id, french ? 'Permis' : 'Licence class', i % 2 === 0 ? 'C1E' : 'CE');
      });
  }

  const counts: ServicesCounts = {};
  const catalogs = new Set([
    'fleet.workshops',
    'fleet.onboarding_providers',
    'fleet.metrics',
    'fleet.logfetch_actions',
  ]);
  for (const [table, tableRows] of Object.entries(rows)) {
    if (catalogs.has(table)) {
      if (tableRows.length > 0) await trx(table).insert(tableRows).onConflict('id').ignore();
      counts[table] = tableRows.length;
      options.onBatch?.(table, tableRows.length);
      continue;
    }
    counts[table] = await insertJson(trx, table, tableRows, (n) => options.onBatch?.(table, n));
  }
  return counts;
}

const JSON_BATCH = 5000;

/**
 * Bulk insert through one JSON parameter per batch (`json_populate_recordset`): several times
 * faster than multi-row VALUES for the large tables (no per-value parameters to build or bind).
 * Columns are those of the rows; a key absent from a row is null.
 */
async function insertJson(
  trx: Knex | Knex.Transaction,
  table: string,
  tableRows: Row[],
  onBatch?: (inserted: number) => void,
): Promise<number> {
  if (tableRows.length === 0) return 0;
  const columns = [...new Set(tableRows.flatMap((row) => Object.keys(row)))];
  const list = columns.map((c) => `"${c}"`).join(', ');
  for (let i = 0; i < tableRows.length; i += JSON_BATCH) {
    const batch = tableRows.slice(i, i + JSON_BATCH);
    await trx.raw(
      `insert into ${table} (${list}) select ${list} from json_populate_recordset(null::${table}, ?::json)`,
      [JSON.stringify(batch)],
    );
    onBatch?.(batch.length);
  }
  return tableRows.length;
}

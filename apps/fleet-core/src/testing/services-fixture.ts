/**
 * Known rows of the services domains on top of the core fixture (fixture.ts), for tests.
 *
 * Roles: alice ADMIN, bob DISPATCHER, carol FLEET_MANAGER (Globex); dave (DISPATCHER, member of
 * North Depot) is added here.
 * Alerts (6 in Acme): depot device 0 has 3 (battery ACTIVE WARNING, engine ACTIVE CRITICAL, overspeed
 * RESOLVED), depot device 1 has 1 (towing ACTIVE CRITICAL), south device 0 has 2; Globex 1.
 * Bookings: B1 bob/depot vehicle 0, B2 alice/south vehicle 0, B3 alice/no vehicle, B5 alice/depot
 * vehicle 1 (bob sees B1 with personal data, B5 without), B4 Globex.
 * Onboarding requests of Norauto Hamburg: R1 depot device 0, R2 no device yet, R3 south device 0
 * (alice sees all three; bob and dave only R1); R9 Globex (Lyon).
 */
import type { Knex } from 'knex';
import { F } from './fixture';
import { FT } from './fixture-trips';

const id = (prefix: string, n: number) => `${prefix}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
const T = Date.parse('2026-11-20T12:00:00Z');
const at = (minutesBefore: number) => new Date(T - minutesBefore * 60_000);
const HOUR = 60;
const DAY = 24 * HOUR;

export const S = {
  now: new Date(T),
  /** A DISPATCHER member of North Depot (bob sees him; he sees only the depot). */
  dave: { uid: id('acc00000', 4), email: 'dave@acme.example', fullName: 'Dave Depot' },
  templates: {
    battery: id('f1000000', 1),
    crash: id('f1000000', 2),
    maintenance: id('f1000000', 3),
    globex: id('f1000000', 9),
  },
  alerts: {
    battery: id('f2000000', 1),
    engine: id('f2000000', 2),
    overspeed: id('f2000000', 3),
    towing: id('f2000000', 4),
    unplugged: id('f2000000', 5),
    fuel: id('f2000000', 6),
    globex: id('f2000000', 9),
  },
  feedbacks: {
    aliceBattery: id('f3000000', 1),
    bobBattery: id('f3000000', 2),
    aliceFuel: id('f3000000', 3),
    globex: id('f3000000', 9),
  },
  workshops: { nord: id('f4000000', 1), sued: id('f4000000', 2), lyon: id('f4000000', 3) },
  driverServices: { tyres: id('f5000000', 1), oil: id('f5000000', 2), globex: id('f5000000', 9) },
  bookings: {
    b1: id('f6000000', 1),
    b2: id('f6000000', 2),
    b3: id('f6000000', 3),
    b4: id('f6000000', 4),
    b5: id('f6000000', 5),
  },
  providers: { norauto: id('f7000000', 1), speedy: id('f7000000', 2) },
  distributors: { hamburg: id('f8000000', 1), berlin: id('f8000000', 2), lyon: id('f8000000', 9) },
  clientIdentifications: {
    ci1: id('f9000000', 1),
    ci2: id('f9000000', 2),
    ci3: id('f9000000', 3),
    globex: id('f9000000', 9),
  },
  campaigns: { firmware: id('fa000000', 1), summer: id('fa000000', 2), globex: id('fa000000', 9) },
  descriptions: {
    alice: id('fb000000', 1),
    hq: id('fb000000', 2),
    depotA: id('fb000000', 3),
    depotB: id('fb000000', 4),
    device: id('fb000000', 5),
    device2: id('fb000000', 6),
    vehicle: id('fb000000', 7),
    globexDevice: id('fb000000', 8),
    carol: id('fb000000', 9),
    anna: id('fb000000', 10),
    greta: id('fb000000', 11),
  },
  requests: { depot: id('f8200000', 1), noDevice: id('f8200000', 2), south: id('f8200000', 3) },
  lpa: { download: id('fc000000', 1), enable: id('fc000000', 2), globex: id('fc000000', 9) },
  iccid: '89490200001234567890',
  activationCode: 'LPA:1$smdp.example.com$ABC-123-XYZ',
};

// Devices the rows below hang on.
const d0 = F.depotDevices[0]!;
const d1 = F.depotDevices[1]!;
const s0 = F.southDevices[0]!;
const g0 = F.globexDevices[0]!;

/** Dave, the roles of every account, and alert preferences. */
async function insertDaveAndRoles(knex: Knex): Promise<void> {
  await knex('fleet.accounts').insert({
    id: S.dave.uid,
    organization_id: F.orgA,
    email: S.dave.email,
    full_name: S.dave.fullName,
    short_name: 'dave',
  });
  await knex('fleet.group_accounts').insert({ group_id: F.groups.depot, account_id: S.dave.uid });
  await knex('fleet.account_roles').insert([
    { account_id: S.dave.uid, role: 'DISPATCHER', granted_at: at(20 * DAY) },
    { account_id: F.alice.uid, role: 'ADMIN', granted_at: at(400 * DAY) },
    { account_id: F.alice.uid, role: 'BILLING', granted_at: at(300 * DAY), granted_by: F.alice.uid },
    { account_id: F.bob.uid, role: 'DISPATCHER', granted_at: at(200 * DAY), granted_by: F.alice.uid },
    { account_id: F.carol.uid, role: 'FLEET_MANAGER', granted_at: at(100 * DAY) },
  ]);
  await knex('fleet.account_alert_preferences').insert([
    {
      account_id: F.alice.uid,
      channels: ['EMAIL', 'PUSH'],
      minimum_severity: 'WARNING',
      digest: 'DAILY',
      language: 'EN',
      quiet_hours_start: '22:00',
      quiet_hours_end: '06:30',
      muted_types: ['EXCESSIVE_IDLING'],
      updated_at: at(10 * DAY),
    },
    {
      account_id: F.bob.uid,
      channels: ['SMS'],
      minimum_severity: 'CRITICAL',
      digest: 'NONE',
      updated_at: at(5 * DAY),
    },
    {
      account_id: F.carol.uid,
      channels: ['EMAIL'],
      minimum_severity: 'INFO',
      digest: 'WEEKLY',
      updated_at: at(DAY),
    },
  ]);
}

/** Free-text descriptions of accounts, groups, devices and a vehicle. */
async function insertDescriptions(knex: Knex): Promise<void> {
  const ds = S.descriptions;
  const description = (
    rowId: string,
    org: string,
    subject: string,
    subjectId: string,
    label: string,
    value: string,
  ) => ({
    id: rowId,
    organization_id: org,
    subject,
    subject_id: subjectId,
    label,
    value,
    source: 'MANUAL',
    created_at: at(30 * DAY),
    updated_at: at(2 * DAY),
  });
  await knex('fleet.descriptions').insert([
    description(ds.alice, F.orgA, 'ACCOUNT', F.alice.uid, 'Cost centre', 'CC-100'),
    description(ds.hq, F.orgA, 'GROUP', F.groups.hq, 'Region code', 'HQ'),
    description(ds.depotA, F.orgA, 'GROUP', F.groups.depot, 'Address', 'Hafenstrasse 1, Hamburg'),
    description(ds.depotB, F.orgA, 'GROUP', F.groups.depot, 'Manager', 'Bob North'),
    description(ds.device, F.orgA, 'DEVICE', d0, 'Installer', 'Garage Nord'),
    description(ds.device2, F.orgA, 'DEVICE', d0, 'Cable', 'Y-cable'),
    description(ds.vehicle, F.orgA, 'VEHICLE', F.vehicles.depot[0]!, 'Lease contract', 'LC-1'),
    description(ds.globexDevice, F.orgB, 'DEVICE', g0, 'Cost centre', 'GX-1'),
    description(ds.carol, F.orgB, 'ACCOUNT', F.carol.uid, 'Cost centre', 'GX'),
    description(ds.anna, F.orgA, 'DRIVER', FT.drivers.anna, 'Licence class', 'C1E'),
    description(ds.greta, F.orgB, 'DRIVER', FT.drivers.greta, 'Licence class', 'B'),
  ]);
}

/** Alert templates, attachments, vehicle alerts and their feedbacks. */
async function insertAlerts(knex: Knex): Promise<void> {
  const t = S.templates;
  const template = (
    rowId: string,
    org: string,
    name: string,
    channel: string,
    contentType: string,
    locked: boolean,
  ) => ({
    id: rowId,
    organization_id: org,
    name,
    version: '1.0.0',
    content_type: contentType,
    default_context: JSON.stringify({ company: org === F.orgA ? 'Acme' : 'Globex', threshold: 11.8 }),
    locked,
    channel_name: channel,
    definition: `{{vehicle.plate}}: {{alert.message}} ({{company}})`,
    created_at: at(90 * DAY),
    updated_at: at(3 * DAY),
  });
  await knex('fleet.alert_templates').insert([
    template(t.battery, F.orgA, 'battery-low-email', 'email', 'HTML', false),
    template(t.crash, F.orgA, 'crash-sms', 'sms', 'TEXT', true),
    template(t.maintenance, F.orgA, 'maintenance-push', 'push', 'TEXT', false),
    template(t.globex, F.orgB, 'globex-alert', 'email', 'TEXT', false),
  ]);
  await knex('fleet.alert_attachments').insert(
    ['a-logo.png', 'b-instructions.pdf', 'c-map.png'].map((filename, i) => ({
      id: id('f1100000', i + 1),
      template_id: t.battery,
      filename,
      content_type: filename.endsWith('.pdf') ? 'application/pdf' : 'image/png',
      byte_size: 1000 * (i + 1),
      url: `https://files.example/templates/${filename}`,
      created_at: at(80 * DAY),
    })),
  );

  const a = S.alerts;
  const alert = (
    rowId: string,
    org: string,
    deviceId: string,
    vehicleId: string | null,
    type: string,
    severity: string,
    status: string,
    minutesBefore: number,
  ) => ({
    id: rowId,
    organization_id: org,
    device_id: deviceId,
    vehicle_id: vehicleId,
    type,
    severity,
    status,
    message: `${type.toLowerCase().replace(/_/g, ' ')} on ${deviceId}`,
    started_at: at(minutesBefore),
    ended_at: status === 'RESOLVED' ? at(minutesBefore - 30) : null,
    latitude: 53.55,
    longitude: 9.99,
  });
  await knex('fleet.vehicle_alerts').insert([
    alert(a.battery, F.orgA, d0, F.vehicles.depot[0]!, 'LOW_BATTERY', 'WARNING', 'ACTIVE', HOUR),
    alert(a.engine, F.orgA, d0, F.vehicles.depot[0]!, 'ENGINE_FAULT', 'CRITICAL', 'ACTIVE', 2 * HOUR),
    alert(a.overspeed, F.orgA, d0, F.vehicles.depot[0]!, 'OVERSPEED', 'INFO', 'RESOLVED', 3 * DAY),
    alert(a.towing, F.orgA, d1, F.vehicles.depot[1]!, 'TOWING', 'CRITICAL', 'ACTIVE', 30),
    alert(a.unplugged, F.orgA, s0, F.vehicles.south[0]!, 'UNPLUGGED', 'WARNING', 'RESOLVED', 5 * DAY),
    alert(a.fuel, F.orgA, s0, F.vehicles.south[0]!, 'FUEL_LEVEL_LOW', 'INFO', 'ACTIVE', 4 * HOUR),
    alert(a.globex, F.orgB, g0, F.vehicles.globex, 'CRASH_DETECTED', 'CRITICAL', 'ACTIVE', 10),
  ]);
  const f = S.feedbacks;
  await knex('fleet.vehicle_alert_feedbacks').insert([
    {
      id: f.aliceBattery,
      alert_id: a.battery,
      account_id: F.alice.uid,
      status: 'CONFIRMED',
      language: 'EN',
      comment: 'Battery replaced',
      created_at: at(50),
    },
    {
      id: f.bobBattery,
      alert_id: a.battery,
      account_id: F.bob.uid,
      status: 'FALSE_POSITIVE',
      language: 'FR',
      comment: 'Tension normale',
      created_at: at(40),
    },
    {
      id: f.aliceFuel,
      alert_id: a.fuel,
      account_id: F.alice.uid,
      status: 'FIXED',
      language: 'DE',
      comment: 'Getankt',
      created_at: at(3 * HOUR),
    },
    {
      id: f.globex,
      alert_id: a.globex,
      account_id: F.carol.uid,
      status: 'CONFIRMED',
      language: 'EN',
      comment: null,
      created_at: at(5),
    },
  ]);
}

/** Workshops, driver services and bookings. */
async function insertWorkshopsAndBookings(knex: Knex): Promise<void> {
  const w = S.workshops;
  await knex('fleet.workshops').insert([
    {
      id: w.nord,
      name: 'Garage Nord',
      address: 'Hafenstrasse 1',
      postal_code: '20457',
      city: 'Hamburg',
      country_code: 'DE',
      phone: '+4940123456',
      email: 'service@garage-nord.example',
      latitude: 53.54,
      longitude: 9.98,
    },
    {
      id: w.sued,
      name: 'Autohaus Sued',
      address: 'Leopoldstrasse 8',
      postal_code: '80802',
      city: 'Muenchen',
      country_code: 'DE',
      phone: '+4989654321',
      latitude: 48.16,
      longitude: 11.58,
    },
    {
      id: w.lyon,
      name: 'Garage Lyon Centre',
      address: '3 rue de la Republique',
      postal_code: '69002',
      city: 'Lyon',
      country_code: 'FR',
      latitude: 45.76,
      longitude: 4.83,
    },
  ]);
  await knex('fleet.organization_workshops').insert([
    { organization_id: F.orgA, workshop_id: w.nord },
    { organization_id: F.orgA, workshop_id: w.sued },
    { organization_id: F.orgB, workshop_id: w.lyon },
  ]);
  const sv = S.driverServices;
  await knex('fleet.driver_services').insert([
    {
      id: sv.tyres,
      organization_id: F.orgA,
      label: 'Tyre change',
      description: 'Seasonal tyre change and storage',
    },
    { id: sv.oil, organization_id: F.orgA, label: 'Oil service', description: 'Engine oil and filter' },
    { id: sv.globex, organization_id: F.orgB, label: 'Vidange', description: 'Vidange moteur' },
  ]);
  await knex('fleet.driver_service_workshops').insert([
    { driver_service_id: sv.tyres, workshop_id: w.nord },
    { driver_service_id: sv.tyres, workshop_id: w.sued },
    { driver_service_id: sv.oil, workshop_id: w.nord },
    { driver_service_id: sv.globex, workshop_id: w.lyon },
  ]);

  const b = S.bookings;
  const booking = (
    rowId: string,
    org: string,
    accountId: string,
    vehicleId: string | null,
    workshopId: string,
    date: string,
    status: string,
    user: { email: string; fullName: string },
  ) => ({
    id: rowId,
    organization_id: org,
    account_id: accountId,
    vehicle_id: vehicleId,
    workshop_id: workshopId,
    plate_number: vehicleId ? `PLATE-${rowId.slice(-1)}` : null,
    booking_date: new Date(date),
    status,
    quotation_ids: [`Q-${rowId.slice(-1)}01`],
    vehicle_make: 'Renault',
    vehicle_model: 'Master',
    vehicle_year: '2021',
    vin: 'VF1MA000000000001',
    city: 'Hamburg',
    country: 'DE',
    additional_information: 'Noise when braking',
    preferred_language: 'DE',
    contact_method: 'SMS',
    user_email: user.email,
    user_name: user.fullName,
    user_phone_number: '+49151000000' + rowId.slice(-1),
  });
  await knex('fleet.bookings').insert([
    booking(b.b1, F.orgA, F.bob.uid, F.vehicles.depot[0]!, w.nord, '2026-12-01T08:00:00Z', 'PENDING', F.bob),
    booking(
      b.b2,
      F.orgA,
      F.alice.uid,
      F.vehicles.south[0]!,
      w.sued,
      '2026-12-05T09:00:00Z',
      'CONFIRMED',
      F.alice,
    ),
    booking(b.b3, F.orgA, F.alice.uid, null, w.nord, '2026-11-01T10:00:00Z', 'CANCELLED', F.alice),
    booking(b.b4, F.orgB, F.carol.uid, F.vehicles.globex, w.lyon, '2026-12-02T10:00:00Z', 'PENDING', F.carol),
    booking(
      b.b5,
      F.orgA,
      F.alice.uid,
      F.vehicles.depot[1]!,
      w.nord,
      '2026-11-25T07:30:00Z',
      'IN_PROGRESS',
      F.alice,
    ),
  ]);
}

/** Onboarding providers, distributors, staff and requests. */
async function insertOnboarding(knex: Knex): Promise<void> {
  const w = S.workshops;
  const p = S.providers;
  await knex('fleet.onboarding_providers').insert([
    {
      id: p.norauto,
      code: 'NORAUTO',
      name: 'Norauto',
      website: 'https://norauto.example',
      support_email: 'pro@norauto.example',
    },
    { id: p.speedy, code: 'SPEEDY', name: 'Speedy', website: 'https://speedy.example' },
  ]);
  const dist = S.distributors;
  await knex('fleet.onboarding_distributors').insert([
    {
      id: dist.hamburg,
      organization_id: F.orgA,
      label: 'Norauto Hamburg',
      provider_id: p.norauto,
      is_active: true,
      workshop_id: w.nord,
      provider_workshop_id: 'NRT-HH-01',
    },
    {
      id: dist.berlin,
      organization_id: F.orgA,
      label: 'Speedy Berlin',
      provider_id: p.speedy,
      is_active: false,
    },
    {
      id: dist.lyon,
      organization_id: F.orgB,
      label: 'Norauto Lyon',
      provider_id: p.norauto,
      is_active: true,
      workshop_id: w.lyon,
    },
  ]);
  await knex('fleet.onboarding_staff').insert([
    {
      id: id('f8100000', 1),
      distributor_id: dist.hamburg,
      full_name: 'Anna Manager',
      email: 'anna@norauto.example',
      role: 'MANAGER',
      active: true,
    },
    {
      id: id('f8100000', 2),
      distributor_id: dist.hamburg,
      full_name: 'Tom Technician',
      phone: '+4940111',
      role: 'TECHNICIAN',
      active: true,
    },
    {
      id: id('f8100000', 3),
      distributor_id: dist.hamburg,
      full_name: 'Sam Sales',
      role: 'SALES',
      active: false,
    },
    {
      id: id('f8100000', 9),
      distributor_id: dist.lyon,
      full_name: 'Luc Lyon',
      role: 'TECHNICIAN',
      active: true,
    },
  ]);
  await knex('fleet.onboarding_requests').insert([
    {
      id: S.requests.depot,
      distributor_id: dist.hamburg,
      device_id: d0,
      status: 'COMPLETED',
      plate: 'HH-AB-100',
      vin: 'VF1MA000000000001',
      requested_at: at(60 * DAY),
      scheduled_at: at(55 * DAY),
      completed_at: at(55 * DAY),
    },
    {
      id: S.requests.noDevice,
      distributor_id: dist.hamburg,
      device_id: null,
      status: 'SCHEDULED',
      plate: 'HH-AB-200',
      requested_at: at(2 * DAY),
      scheduled_at: new Date(T + 3 * 86_400_000),
    },
    {
      id: S.requests.south,
      distributor_id: dist.hamburg,
      device_id: s0,
      status: 'COMPLETED',
      plate: 'HH-SO-300',
      vin: 'VF1MA000000000003',
      notes: 'South installation',
      requested_at: at(40 * DAY),
      completed_at: at(39 * DAY),
    },
    {
      id: id('f8200000', 9),
      distributor_id: dist.lyon,
      device_id: g0,
      status: 'COMPLETED',
      requested_at: at(30 * DAY),
    },
  ]);
}

/** Client identifications. */
async function insertClientIdentifications(knex: Knex): Promise<void> {
  const dist = S.distributors;
  const ci = S.clientIdentifications;
  await knex('fleet.client_identifications').insert([
    {
      id: ci.ci1,
      organization_id: F.orgA,
      code: 'ACME-001',
      label: 'Acme Hamburg fleet',
      distributor_id: dist.hamburg,
      client_reference: 'C-1001',
      default_account_id: F.alice.uid,
      usable: true,
      revoked: false,
    },
    {
      id: ci.ci2,
      organization_id: F.orgA,
      code: 'ACME-002',
      label: 'Acme Berlin',
      distributor_id: dist.berlin,
      client_reference: 'C-1002',
      default_account_id: F.bob.uid,
      usable: false,
      revoked: true,
    },
    {
      id: ci.ci3,
      organization_id: F.orgA,
      code: 'ACME-003',
      label: 'Acme Munich pool',
      client_reference: 'C-1003',
      default_account_id: F.alice.uid,
      usable: true,
      revoked: false,
    },
    {
      id: ci.globex,
      organization_id: F.orgB,
      code: 'GLX-001',
      label: 'Globex Lyon',
      distributor_id: dist.lyon,
      client_reference: 'C-1001',
      default_account_id: F.carol.uid,
      usable: true,
      revoked: false,
    },
  ]);
}

/** Campaigns and their devices. */
async function insertCampaigns(knex: Knex): Promise<void> {
  const c = S.campaigns;
  await knex('fleet.campaigns').insert([
    {
      id: c.firmware,
      organization_id: F.orgA,
      name: 'Firmware 4.2',
      status: 'AVAILABLE_UPDATE',
      configurations: ['cfg-4.2.0'],
      created_at: at(10 * DAY),
    },
    {
      id: c.summer,
      organization_id: F.orgA,
      name: 'Config summer',
      status: 'COMPLETED',
      configurations: ['cfg-summer-a', 'cfg-summer-b'],
      created_at: at(60 * DAY),
      archived_at: at(5 * DAY),
    },
    {
      id: c.globex,
      organization_id: F.orgB,
      name: 'Globex rollout',
      status: 'IN_PROGRESS',
      configurations: ['cfg-gx'],
      created_at: at(DAY),
    },
  ]);
  await knex('fleet.campaign_devices').insert([
    { campaign_id: c.firmware, device_id: d0, status: 'UP_TO_DATE', updated_at: at(DAY) },
    {
      campaign_id: c.firmware,
      device_id: d1,
      status: 'FAILED',
      error_message: 'download timeout',
      updated_at: at(DAY),
    },
    { campaign_id: c.firmware, device_id: s0, status: 'PENDING', updated_at: at(DAY) },
    { campaign_id: c.globex, device_id: g0, status: 'DOWNLOADING', updated_at: at(HOUR) },
  ]);
}

/** Metrics. */
async function insertMetrics(knex: Knex): Promise<void> {
  await knex('fleet.metrics').insert([
    {
      id: 'obd.vehicle_speed',
      name: 'vehicle_speed',
      description: 'Vehicle speed',
      category: 'DRIVING',
      data_type: 'FLOAT',
      unit: 'km/h',
      raw_unit: null,
      raw_factor: 1,
    },
    {
      id: 'obd.engine_rpm',
      name: 'engine_rpm',
      description: 'Engine speed',
      category: 'ENGINE',
      data_type: 'FLOAT',
      unit: 'rpm',
      raw_unit: '0.25 rpm',
      raw_factor: 0.25,
    },
    {
      id: 'battery.voltage',
      name: 'battery_voltage',
      description: 'Battery voltage',
      category: 'BATTERY',
      data_type: 'FLOAT',
      unit: 'V',
      raw_unit: 'mV',
      raw_factor: 0.001,
    },
    {
      id: 'gps.position',
      name: 'gps_position',
      description: 'GPS position',
      category: 'POSITION',
      data_type: 'COORDINATES',
      unit: null,
      raw_unit: null,
      raw_factor: 1,
    },
    {
      id: 'fuel.level',
      name: 'fuel_level',
      description: 'Fuel level',
      category: 'FUEL',
      data_type: 'FLOAT',
      unit: '%',
      raw_unit: '0.4 %',
      raw_factor: 0.4,
    },
  ]);
}

/** Log fetches, remote diagnostics, profile privacy and modes, LPA operations. */
async function insertDeviceOperations(knex: Knex): Promise<void> {
  await knex('fleet.logfetch_actions').insert([
    {
      id: 'SYSTEM_LOGS',
      name: 'System logs',
      description: 'Operating system and application logs',
      default_duration_minutes: 1440,
      position: 1,
    },
    {
      id: 'CAN_TRACE',
      name: 'CAN trace',
      description: 'Raw vehicle bus frames',
      default_duration_minutes: 10,
      position: 2,
    },
    {
      id: 'GPS_TRACE',
      name: 'GPS trace',
      description: 'Raw GNSS receiver output',
      default_duration_minutes: 60,
      position: 3,
    },
    {
      id: 'MODEM_LOGS',
      name: 'Modem logs',
      description: 'Cellular modem events',
      default_duration_minutes: null,
      position: 4,
    },
  ]);
  await knex('fleet.device_log_fetches').insert([
    {
      id: id('fd000000', 1),
      device_id: d0,
      action_id: 'SYSTEM_LOGS',
      status: 'COMPLETED',
      requested_by: F.alice.uid,
      requested_at: at(2 * DAY),
      completed_at: at(2 * DAY - 20),
      byte_size: 52_000,
      file_url: 'https://files.example/logs/1.tgz',
    },
    {
      id: id('fd000000', 2),
      device_id: d0,
      action_id: 'CAN_TRACE',
      status: 'FAILED',
      requested_by: F.bob.uid,
      requested_at: at(DAY),
    },
    {
      id: id('fd000000', 9),
      device_id: g0,
      action_id: 'MODEM_LOGS',
      status: 'REQUESTED',
      requested_by: F.carol.uid,
      requested_at: at(HOUR),
    },
  ]);
  await knex('fleet.device_remote_diags').insert([
    {
      id: id('fe000000', 1),
      device_id: d0,
      status: 'COMPLETED',
      protocol: 'ISO15765_11BIT',
      requested_at: at(3 * DAY),
      completed_at: at(3 * DAY - 5),
      dtc_codes: ['P0420', 'P0171'],
      vin: 'VF1MA000000000001',
      battery_voltage: 12.4,
      odometer_km: 10_250,
    },
    { id: id('fe000000', 9), device_id: g0, status: 'REQUESTED', requested_at: at(HOUR) },
  ]);
  await knex('fleet.device_profile_privacies').insert([
    {
      id: id('ff000000', 1),
      device_id: d0,
      level: 'FULL',
      started_at: at(100 * DAY),
      ended_at: at(10 * DAY),
    },
    { id: id('ff000000', 2), device_id: d0, level: 'NO_LOCATION', started_at: at(10 * DAY) },
    { id: id('ff000000', 9), device_id: g0, level: 'PRIVATE', started_at: at(DAY) },
  ]);
  await knex('fleet.device_profile_modes').insert([
    { id: id('ff100000', 1), device_id: d0, mode: 'NORMAL', started_at: at(20 * DAY) },
    {
      id: id('ff100000', 2),
      device_id: d1,
      mode: 'STORAGE',
      started_at: at(50 * DAY),
      ended_at: at(40 * DAY),
    },
    { id: id('ff100000', 9), device_id: g0, mode: 'TRANSPORT', started_at: at(DAY) },
  ]);
  await knex('fleet.lpa_operations').insert([
    {
      id: S.lpa.download,
      device_id: d0,
      function_name: 'DOWNLOAD_AND_ENABLE_PROFILE',
      status: 'SUCCEEDED',
      iccid: S.iccid,
      activation_code: S.activationCode,
      has_confirmation_code: true,
      requested_at: at(7 * DAY),
    },
    {
      id: S.lpa.enable,
      device_id: d0,
      function_name: 'ENABLE_PROFILE',
      status: 'PENDING',
      iccid: S.iccid,
      requested_at: at(HOUR),
    },
    { id: S.lpa.globex, device_id: g0, function_name: 'GET_EID', status: 'SUCCEEDED', requested_at: at(DAY) },
  ]);
}

export async function loadServicesFixture(knex: Knex): Promise<void> {
  await insertDaveAndRoles(knex);
  await insertDescriptions(knex);
  await insertAlerts(knex);
  await insertWorkshopsAndBookings(knex);
  await insertOnboarding(knex);
  await insertClientIdentifications(knex);
  await insertCampaigns(knex);
  await insertMetrics(knex);
  await insertDeviceOperations(knex);
}

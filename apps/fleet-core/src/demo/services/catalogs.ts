/** The services demo's fixed catalogs: workshops, onboarding providers, metrics, log-fetch actions, alert kinds, driver services. */
import type { Rng } from '../ids';
import { uuidV5 } from '../ids';
import { DAY, type Row } from './context';

export const WORKSHOPS = [
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

export const PROVIDERS = [
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

export const ALERTS: ReadonlyArray<{
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

export const DRIVER_SERVICES = [
  ['Tyre change', 'Seasonal tyre change, balancing and storage'],
  ['Oil service', 'Engine oil and filter change with a 30-point check'],
  ['Brake inspection', 'Pads, discs and brake fluid check'],
  ['Windscreen repair', 'Chip repair or windscreen replacement'],
  ['Annual inspection', 'Preparation and presentation to the statutory roadworthiness test'],
] as const;

/** The global catalogs (inserted if absent: an import may already have created them). */
export function writeCatalogs(push: (table: string, row: Row) => void, now: number): void {
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
}

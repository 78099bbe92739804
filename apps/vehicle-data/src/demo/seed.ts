/**
 * Demo rows for the coverage catalogue, the vehicle reference table and the plate registry,
 * written only into empty tables (idempotent), by the manifest's demoData hook (npm start,
 * npm run seed, the e2e stack) and by the tests' harness. Deterministic: the same ids on every run.
 * The reference (KBA / K-Type) and plate rows are demo data shaped like real registrations, not
 * an extract of an official register.
 */
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';

type Energy = 'GASOLINE' | 'DIESEL' | 'ELECTRIC' | 'HYBRID' | 'PLUGIN_HYBRID' | 'LPG' | 'CNG';
const POWERTRAIN: Record<Energy, string> = {
  GASOLINE: 'ICE',
  DIESEL: 'ICE',
  LPG: 'ICE',
  CNG: 'ICE',
  HYBRID: 'HEV',
  PLUGIN_HYBRID: 'PHEV',
  ELECTRIC: 'BEV',
};
type Region = 'EUROPE' | 'NORTH_AMERICA' | 'SOUTH_AMERICA' | 'ASIA' | 'AFRICA' | 'OCEANIA';

/** make -> models: [name, first year, last year, energies, regions] */
const CATALOGUE: Record<string, [string, number, number, Energy[], Region[]][]> = {
  Renault: [
    ['Clio', 2012, 2024, ['GASOLINE', 'DIESEL', 'HYBRID', 'LPG'], ['EUROPE', 'AFRICA', 'SOUTH_AMERICA']],
    ['Megane', 2016, 2024, ['GASOLINE', 'DIESEL', 'ELECTRIC', 'PLUGIN_HYBRID'], ['EUROPE']],
    ['Zoe', 2013, 2024, ['ELECTRIC'], ['EUROPE']],
    ['Master', 2014, 2024, ['DIESEL', 'ELECTRIC'], ['EUROPE', 'AFRICA']],
    ['Kangoo', 2013, 2024, ['DIESEL', 'GASOLINE', 'ELECTRIC'], ['EUROPE']],
  ],
  Peugeot: [
    ['208', 2012, 2024, ['GASOLINE', 'DIESEL', 'ELECTRIC'], ['EUROPE', 'SOUTH_AMERICA', 'AFRICA']],
    ['308', 2014, 2024, ['GASOLINE', 'DIESEL', 'PLUGIN_HYBRID'], ['EUROPE']],
    ['3008', 2016, 2024, ['GASOLINE', 'DIESEL', 'PLUGIN_HYBRID'], ['EUROPE', 'ASIA']],
    ['Partner', 2015, 2024, ['DIESEL', 'ELECTRIC'], ['EUROPE']],
  ],
  Citroën: [
    ['C3', 2016, 2024, ['GASOLINE', 'DIESEL'], ['EUROPE', 'SOUTH_AMERICA']],
    ['Berlingo', 2015, 2024, ['DIESEL', 'GASOLINE', 'ELECTRIC'], ['EUROPE']],
    ['C5 Aircross', 2018, 2024, ['GASOLINE', 'DIESEL', 'PLUGIN_HYBRID'], ['EUROPE', 'ASIA']],
  ],
  Volkswagen: [
    ['Golf', 2013, 2024, ['GASOLINE', 'DIESEL', 'PLUGIN_HYBRID', 'CNG'], ['EUROPE', 'NORTH_AMERICA']],
    ['Polo', 2014, 2024, ['GASOLINE', 'DIESEL'], ['EUROPE', 'AFRICA', 'SOUTH_AMERICA']],
    ['Passat', 2015, 2024, ['GASOLINE', 'DIESEL', 'PLUGIN_HYBRID'], ['EUROPE', 'NORTH_AMERICA', 'ASIA']],
    ['ID.3', 2020, 2024, ['ELECTRIC'], ['EUROPE']],
    ['ID.4', 2021, 2024, ['ELECTRIC'], ['EUROPE', 'NORTH_AMERICA', 'ASIA']],
    ['Transporter', 2015, 2024, ['DIESEL', 'ELECTRIC'], ['EUROPE']],
    ['Tiguan', 2016, 2024, ['GASOLINE', 'DIESEL', 'PLUGIN_HYBRID'], ['EUROPE', 'NORTH_AMERICA', 'ASIA']],
  ],
  BMW: [
    [
      '3 Series',
      2012,
      2024,
      ['GASOLINE', 'DIESEL', 'PLUGIN_HYBRID'],
      ['EUROPE', 'NORTH_AMERICA', 'ASIA', 'OCEANIA'],
    ],
    ['X3', 2017, 2024, ['GASOLINE', 'DIESEL', 'PLUGIN_HYBRID'], ['EUROPE', 'NORTH_AMERICA', 'ASIA']],
    ['i3', 2014, 2022, ['ELECTRIC'], ['EUROPE', 'NORTH_AMERICA']],
    ['i4', 2021, 2024, ['ELECTRIC'], ['EUROPE', 'NORTH_AMERICA']],
  ],
  'Mercedes-Benz': [
    ['C-Class', 2014, 2024, ['GASOLINE', 'DIESEL', 'PLUGIN_HYBRID'], ['EUROPE', 'NORTH_AMERICA', 'ASIA']],
    ['Sprinter', 2014, 2024, ['DIESEL', 'ELECTRIC'], ['EUROPE', 'NORTH_AMERICA']],
    ['Vito', 2015, 2024, ['DIESEL', 'ELECTRIC'], ['EUROPE']],
    ['EQA', 2021, 2024, ['ELECTRIC'], ['EUROPE']],
  ],
  Fiat: [
    ['500', 2012, 2024, ['GASOLINE', 'HYBRID', 'ELECTRIC'], ['EUROPE', 'NORTH_AMERICA']],
    ['Panda', 2012, 2024, ['GASOLINE', 'HYBRID', 'CNG', 'LPG'], ['EUROPE']],
    ['Ducato', 2014, 2024, ['DIESEL', 'ELECTRIC'], ['EUROPE', 'SOUTH_AMERICA']],
  ],
  Ford: [
    ['Focus', 2012, 2024, ['GASOLINE', 'DIESEL'], ['EUROPE', 'NORTH_AMERICA']],
    ['Transit', 2014, 2024, ['DIESEL', 'ELECTRIC'], ['EUROPE', 'NORTH_AMERICA']],
    ['F-150', 2015, 2024, ['GASOLINE', 'HYBRID', 'ELECTRIC'], ['NORTH_AMERICA']],
    ['Mustang Mach-E', 2021, 2024, ['ELECTRIC'], ['NORTH_AMERICA', 'EUROPE']],
  ],
  Toyota: [
    ['Corolla', 2013, 2024, ['GASOLINE', 'HYBRID'], ['EUROPE', 'NORTH_AMERICA', 'ASIA', 'OCEANIA', 'AFRICA']],
    ['Yaris', 2012, 2024, ['GASOLINE', 'HYBRID'], ['EUROPE', 'ASIA']],
    [
      'RAV4',
      2013,
      2024,
      ['GASOLINE', 'HYBRID', 'PLUGIN_HYBRID'],
      ['EUROPE', 'NORTH_AMERICA', 'ASIA', 'OCEANIA'],
    ],
    ['Prius', 2012, 2024, ['HYBRID', 'PLUGIN_HYBRID'], ['NORTH_AMERICA', 'ASIA', 'EUROPE']],
    ['Hilux', 2016, 2024, ['DIESEL'], ['AFRICA', 'SOUTH_AMERICA', 'OCEANIA', 'ASIA']],
  ],
  Honda: [
    ['Accord', 2012, 2024, ['GASOLINE', 'HYBRID'], ['NORTH_AMERICA', 'ASIA']],
    ['Civic', 2012, 2024, ['GASOLINE', 'HYBRID'], ['NORTH_AMERICA', 'EUROPE', 'ASIA']],
    ['CR-V', 2013, 2024, ['GASOLINE', 'HYBRID'], ['NORTH_AMERICA', 'EUROPE', 'ASIA']],
  ],
  Tesla: [
    ['Model 3', 2017, 2024, ['ELECTRIC'], ['NORTH_AMERICA', 'EUROPE', 'ASIA', 'OCEANIA']],
    ['Model Y', 2020, 2024, ['ELECTRIC'], ['NORTH_AMERICA', 'EUROPE', 'ASIA', 'OCEANIA']],
    ['Model S', 2012, 2024, ['ELECTRIC'], ['NORTH_AMERICA', 'EUROPE']],
  ],
  Hyundai: [
    ['Ioniq 5', 2021, 2024, ['ELECTRIC'], ['EUROPE', 'NORTH_AMERICA', 'ASIA']],
    [
      'Tucson',
      2015,
      2024,
      ['GASOLINE', 'DIESEL', 'HYBRID', 'PLUGIN_HYBRID'],
      ['EUROPE', 'NORTH_AMERICA', 'ASIA'],
    ],
  ],
  Kia: [
    ['Niro', 2016, 2024, ['HYBRID', 'PLUGIN_HYBRID', 'ELECTRIC'], ['EUROPE', 'NORTH_AMERICA', 'ASIA']],
    ['Sportage', 2015, 2024, ['GASOLINE', 'DIESEL', 'HYBRID'], ['EUROPE', 'ASIA']],
  ],
  Dacia: [
    ['Sandero', 2013, 2024, ['GASOLINE', 'LPG'], ['EUROPE', 'AFRICA']],
    ['Duster', 2014, 2024, ['GASOLINE', 'DIESEL', 'LPG'], ['EUROPE', 'AFRICA', 'SOUTH_AMERICA']],
    ['Spring', 2021, 2024, ['ELECTRIC'], ['EUROPE']],
  ],
  Škoda: [
    ['Octavia', 2013, 2024, ['GASOLINE', 'DIESEL', 'CNG', 'PLUGIN_HYBRID'], ['EUROPE']],
    ['Enyaq', 2021, 2024, ['ELECTRIC'], ['EUROPE']],
  ],
  Volvo: [
    ['XC60', 2013, 2024, ['GASOLINE', 'DIESEL', 'PLUGIN_HYBRID'], ['EUROPE', 'NORTH_AMERICA', 'ASIA']],
    ['XC40', 2018, 2024, ['GASOLINE', 'PLUGIN_HYBRID', 'ELECTRIC'], ['EUROPE', 'NORTH_AMERICA']],
  ],
};

const BASE_PARAMETERS = [
  'odometer',
  'vehicle_speed',
  'ignition_status',
  'dtc',
  'mil_status',
  'battery_voltage',
];
const ENERGY_PARAMETERS: Record<string, string[]> = {
  ICE: ['fuel_level', 'engine_rpm', 'engine_coolant_temperature', 'engine_oil_life', 'fuel_consumption'],
  HEV: ['fuel_level', 'engine_rpm', 'engine_coolant_temperature', 'hybrid_battery_soc'],
  PHEV: ['fuel_level', 'engine_rpm', 'ev_battery_soc', 'ev_range', 'charging_status'],
  BEV: ['ev_battery_soc', 'ev_range', 'charging_status', 'charging_power', 'ev_battery_health'],
};

const id = (prefix: string, ...parts: (string | number)[]) =>
  `${prefix}_${createHash('sha1').update(parts.join('|')).digest('hex').slice(0, 12)}`;
const slug = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-');

/** True when both parts are there: the coverage catalogue and the reference table. */
export async function vehicleDataSeeded(knex: Knex): Promise<boolean> {
  const { rows } = await knex.raw<{ rows: { seeded: boolean }[] }>(
    `select exists (select 1 from vehicle_data.coverage_makes)
        and exists (select 1 from vehicle_data.vehicle_references) as seeded`,
  );
  return rows[0]?.seeded === true;
}

/**
 * Fills the coverage catalogue, and the reference table with the plate registry, each only when
 * empty; returns the rows written by table (empty when everything was there).
 */
export async function seedVehicleData(knex: Knex): Promise<Record<string, number>> {
  return knex.transaction(async (trx) => {
    await trx.raw('lock table vehicle_data.coverage_makes in exclusive mode');
    const counts: Record<string, number> = {};
    const hasCoverage = await trx('vehicle_data.coverage_makes').first('id');
    if (!hasCoverage) Object.assign(counts, await seedCoverage(trx));
    const hasReferences = await trx('vehicle_data.vehicle_references').first('id');
    if (!hasReferences) Object.assign(counts, await seedReferences(trx));
    return counts;
  });
}

async function seedCoverage(trx: Knex.Transaction): Promise<Record<string, number>> {
  const makes: object[] = [];
  const models: object[] = [];
  const vehicles: object[] = [];
  for (const [make, list] of Object.entries(CATALOGUE)) {
    const makeId = `mk_${slug(make)}`;
    makes.push({ id: makeId, name: make });
    for (const [model, from, to, energies, regions] of list) {
      const modelId = `md_${slug(make)}_${slug(model)}`;
      models.push({ id: modelId, make_id: makeId, name: model });
      for (let year = from; year <= to; year++) {
        for (const energy of energies) {
          const powertrain = POWERTRAIN[energy];
          // Connected-car parameters grow with the model year: charging power and health from 2019, oil life from 2016.
          const parameters = [...BASE_PARAMETERS, ...ENERGY_PARAMETERS[powertrain]!].filter(
            (p) =>
              !((p === 'charging_power' || p === 'ev_battery_health') && year < 2019) &&
              !(p === 'engine_oil_life' && year < 2016),
          );
          if (year >= 2018) parameters.push('tire_pressure');
          if (energy === 'DIESEL' && year >= 2015) parameters.push('adblue_level');
          vehicles.push({
            id: id('cv', make, model, year, energy),
            model_id: modelId,
            year,
            energy_type: energy,
            powertrain,
            regions,
            parameters,
          });
        }
      }
    }
  }
  await trx('vehicle_data.coverage_makes').insert(makes);
  await trx('vehicle_data.coverage_models').insert(models);
  for (let i = 0; i < vehicles.length; i += 500)
    await trx('vehicle_data.coverage_vehicles').insert(vehicles.slice(i, i + 500));
  const blacklists = [
    {
      id: 'bl_renault_zoe_2013',
      make: 'Renault',
      model: 'Zoe',
      year: 2013,
      reason: 'First-generation gateway blocks OBD requests while charging',
    },
    {
      id: 'bl_tesla_model-s',
      make: 'Tesla',
      model: 'Model S',
      year: null,
      reason: 'No standard OBD-II diagnostic data on the connector',
    },
    {
      id: 'bl_fiat_ducato_2014',
      make: 'Fiat',
      model: 'Ducato',
      year: 2014,
      reason: 'CAN wake-up drains the 12 V battery when parked',
    },
    {
      id: 'bl_bmw_i3_2014',
      make: 'BMW',
      model: 'i3',
      year: 2014,
      reason: 'State of charge not readable on the OBD port',
    },
    {
      id: 'bl_bmw_i3_2015',
      make: 'BMW',
      model: 'i3',
      year: 2015,
      reason: 'State of charge not readable on the OBD port',
    },
    {
      id: 'bl_ford_f-150_2015',
      make: 'Ford',
      model: 'F-150',
      year: 2015,
      reason: 'Odometer frame encrypted on this model year',
    },
    {
      id: 'bl_mercedes-benz',
      make: 'Mercedes-Benz',
      model: 'EQA',
      year: null,
      reason: 'Security gateway: diagnostic access needs manufacturer authorization',
    },
  ];
  await trx('vehicle_data.coverage_blacklists').insert(blacklists);
  return {
    coverage_makes: makes.length,
    coverage_models: models.length,
    coverage_vehicles: vehicles.length,
    coverage_blacklists: blacklists.length,
  };
}

/** Model references (KBA and K-type numbers) that registered plates point at. */
const VEHICLE_REFERENCES = [
  {
    id: 'ref_vw_golf7_14tsi',
    kba: '0603BFY',
    ktype: '100573',
    make: 'Volkswagen',
    model: 'Golf',
    advanced_model: 'Golf VII 1.4 TSI',
    body_type: 'Hatchback',
    fuel_type: 'GASOLINE',
    engine_code: 'CZDA',
    engine_displacement: 1395,
    engine_output_power: 92,
    engine_cylinders: 4,
    gearbox_type: 'Manual',
    doors: 5,
    seats: 5,
    year_from: 2012,
    year_to: 2020,
  },
  {
    id: 'ref_renault_clio4_15dci',
    kba: '2125AGV',
    ktype: '111046',
    make: 'Renault',
    model: 'Clio',
    advanced_model: 'Clio IV 1.5 dCi 90',
    body_type: 'Hatchback',
    fuel_type: 'DIESEL',
    engine_code: 'K9K 608',
    engine_displacement: 1461,
    engine_output_power: 66,
    engine_cylinders: 4,
    gearbox_type: 'Manual',
    doors: 5,
    seats: 5,
    year_from: 2012,
    year_to: 2019,
  },
  {
    id: 'ref_bmw_320d_f30',
    kba: '0005BGF',
    ktype: '103422',
    make: 'BMW',
    model: '3 Series',
    advanced_model: '320d (F30)',
    body_type: 'Sedan',
    fuel_type: 'DIESEL',
    engine_code: 'N47D20C',
    engine_displacement: 1995,
    engine_output_power: 135,
    engine_cylinders: 4,
    gearbox_type: 'Automatic',
    doors: 4,
    seats: 5,
    year_from: 2012,
    year_to: 2015,
  },
  {
    id: 'ref_tesla_model3_lr',
    kba: '5072AAB',
    ktype: '134542',
    make: 'Tesla',
    model: 'Model 3',
    advanced_model: 'Model 3 Long Range AWD',
    body_type: 'Sedan',
    fuel_type: 'ELECTRIC',
    engine_code: null,
    engine_displacement: null,
    engine_output_power: 258,
    engine_cylinders: null,
    gearbox_type: 'Automatic',
    doors: 4,
    seats: 5,
    year_from: 2019,
    year_to: 2023,
  },
  {
    id: 'ref_mb_sprinter_316',
    kba: '1313CAZ',
    ktype: '119478',
    make: 'Mercedes-Benz',
    model: 'Sprinter',
    advanced_model: 'Sprinter 316 CDI',
    body_type: 'Van',
    fuel_type: 'DIESEL',
    engine_code: 'OM651',
    engine_displacement: 2143,
    engine_output_power: 120,
    engine_cylinders: 4,
    gearbox_type: 'Manual',
    doors: 4,
    seats: 3,
    year_from: 2013,
    year_to: 2018,
  },
];

/** Registered plates of several countries, some with a model reference. */
const PLATE_REGISTRY = [
  {
    country: 'FR',
    plate: 'GH456JK',
    plate_display: 'GH-456-JK',
    vin: 'VF1RFB00X56123456',
    make: 'Renault',
    model: 'Clio',
    model_year: 2018,
    fuel_type: 'DIESEL',
    color: 'Grey',
    reference_id: 'ref_renault_clio4_15dci',
    first_registration: '2018-03-14',
  },
  {
    country: 'DE',
    plate: 'MAB1234',
    plate_display: 'M-AB 1234',
    vin: 'WVWZZZAUZFW000123',
    make: 'Volkswagen',
    model: 'Golf',
    model_year: 2015,
    fuel_type: 'GASOLINE',
    color: 'White',
    reference_id: 'ref_vw_golf7_14tsi',
    first_registration: '2015-06-02',
  },
  {
    country: 'DE',
    plate: 'BTS3000E',
    plate_display: 'B-TS 3000E',
    vin: '5YJ3E1EA2KF317000',
    make: 'Tesla',
    model: 'Model 3',
    model_year: 2019,
    fuel_type: 'ELECTRIC',
    color: 'Blue',
    reference_id: 'ref_tesla_model3_lr',
    first_registration: '2019-09-20',
  },
  {
    country: 'NL',
    plate: '1KBB34',
    plate_display: '1-KBB-34',
    vin: null,
    make: 'Toyota',
    model: 'Corolla',
    model_year: 2021,
    fuel_type: 'HYBRID',
    color: 'Red',
    reference_id: null,
    first_registration: '2021-01-08',
  },
  {
    country: 'GB',
    plate: 'AB12CDE',
    plate_display: 'AB12 CDE',
    vin: 'SAJAA01T5EF000001',
    make: 'Jaguar',
    model: 'XE',
    model_year: 2014,
    fuel_type: 'DIESEL',
    color: 'Black',
    reference_id: null,
    first_registration: '2014-09-01',
  },
  {
    country: 'US-CA',
    plate: '7ABC123',
    plate_display: '7ABC123',
    vin: '1HGCM82633A004352',
    make: 'Honda',
    model: 'Accord',
    model_year: 2003,
    fuel_type: 'GASOLINE',
    color: 'Silver',
    reference_id: null,
    first_registration: '2003-05-20',
  },
  {
    country: 'ES',
    plate: '1234BCD',
    plate_display: '1234 BCD',
    vin: 'VSSZZZ6JZER000042',
    make: 'SEAT',
    model: 'Ibiza',
    model_year: 2014,
    fuel_type: 'GASOLINE',
    color: 'Red',
    reference_id: null,
    first_registration: '2014-11-11',
  },
  {
    country: 'IT',
    plate: 'AB123CD',
    plate_display: 'AB 123 CD',
    vin: 'ZFA31200000123456',
    make: 'Fiat',
    model: 'Panda',
    model_year: 2016,
    fuel_type: 'GASOLINE',
    color: 'White',
    reference_id: null,
    first_registration: '2016-02-29',
  },
  {
    country: 'BE',
    plate: '1ABC234',
    plate_display: '1-ABC-234',
    vin: 'VF3LCYHZPJS000042',
    make: 'Peugeot',
    model: '208',
    model_year: 2018,
    fuel_type: 'GASOLINE',
    color: 'Yellow',
    reference_id: null,
    first_registration: '2018-07-01',
  },
];

async function seedReferences(trx: Knex.Transaction): Promise<Record<string, number>> {
  await trx('vehicle_data.vehicle_references').insert(VEHICLE_REFERENCES);
  await trx('vehicle_data.plate_registry').insert(PLATE_REGISTRY);
  return { vehicle_references: VEHICLE_REFERENCES.length, plate_registry: PLATE_REGISTRY.length };
}

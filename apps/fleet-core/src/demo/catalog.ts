/** Realistic names for the demo data: products, vehicle models, cities, people. */
import type { FuelType } from './enums';

export interface ProductSpec {
  name: string;
  network: string;
  market: string;
  hasWifi: boolean;
  hasBluetooth: boolean;
  deviceType: string;
  /** Type Allocation Code: the first 8 digits of the IMEI of every unit of this product. */
  tac: string;
  serialPrefix: string;
  weight: number;
}

export const PRODUCTS: readonly ProductSpec[] = [
  {
    name: 'TelematicsBox 4G',
    network: 'CELLULAR_4G',
    market: 'EU',
    hasWifi: false,
    hasBluetooth: true,
    deviceType: 'OBD_DONGLE',
    tac: '35693810',
    serialPrefix: 'TB4G',
    weight: 50,
  },
  {
    name: 'TelematicsBox LTE-M',
    network: 'LTE_M',
    market: 'GLOBAL',
    hasWifi: false,
    hasBluetooth: true,
    deviceType: 'OBD_DONGLE',
    tac: '86753204',
    serialPrefix: 'TBLM',
    weight: 25,
  },
  {
    name: 'FleetHub 5G',
    network: 'CELLULAR_5G',
    market: 'EU',
    hasWifi: true,
    hasBluetooth: true,
    deviceType: 'HARDWIRED',
    tac: '35998412',
    serialPrefix: 'FH5G',
    weight: 15,
  },
  {
    name: 'AssetTag NB-IoT',
    network: 'NB_IOT',
    market: 'EU',
    hasWifi: false,
    hasBluetooth: false,
    deviceType: 'ASSET_TRACKER',
    tac: '35412876',
    serialPrefix: 'ATNB',
    weight: 10,
  },
];

export interface VehicleModelSpec {
  make: string;
  model: string;
  /** World manufacturer identifier (VIN positions 1-3) and a vehicle descriptor (positions 4-8). */
  wmi: string;
  descriptor: string;
  plant: string;
  fuel: FuelType;
  years: readonly [number, number];
  /** Typical yearly distance in km. */
  yearlyKm: readonly [number, number];
  weight: number;
}

export const VEHICLE_MODELS: readonly VehicleModelSpec[] = [
  {
    make: 'Mercedes-Benz',
    model: 'Sprinter',
    wmi: 'WDB',
    descriptor: '90663',
    plant: 'P',
    fuel: 'DIESEL',
    years: [2015, 2025],
    yearlyKm: [30000, 60000],
    weight: 14,
  },
  {
    make: 'Ford',
    model: 'Transit',
    wmi: 'WF0',
    descriptor: 'XXTTG',
    plant: 'K',
    fuel: 'DIESEL',
    years: [2014, 2025],
    yearlyKm: [25000, 55000],
    weight: 12,
  },
  {
    make: 'Volkswagen',
    model: 'Crafter',
    wmi: 'WV1',
    descriptor: 'ZZZSZ',
    plant: 'X',
    fuel: 'DIESEL',
    years: [2017, 2025],
    yearlyKm: [25000, 50000],
    weight: 9,
  },
  {
    make: 'Renault',
    model: 'Master',
    wmi: 'VF1',
    descriptor: 'MA000',
    plant: 'B',
    fuel: 'DIESEL',
    years: [2015, 2025],
    yearlyKm: [25000, 50000],
    weight: 8,
  },
  {
    make: 'Iveco',
    model: 'Daily',
    wmi: 'ZCF',
    descriptor: 'C35A0',
    plant: 'S',
    fuel: 'DIESEL',
    years: [2015, 2025],
    yearlyKm: [30000, 60000],
    weight: 6,
  },
  {
    make: 'Fiat',
    model: 'Ducato',
    wmi: 'ZFA',
    descriptor: '25000',
    plant: 'A',
    fuel: 'DIESEL',
    years: [2014, 2025],
    yearlyKm: [20000, 45000],
    weight: 6,
  },
  {
    make: 'Volvo',
    model: 'FH 500',
    wmi: 'YV2',
    descriptor: 'RTW0A',
    plant: 'G',
    fuel: 'DIESEL',
    years: [2016, 2025],
    yearlyKm: [90000, 150000],
    weight: 4,
  },
  {
    make: 'Scania',
    model: 'R 450',
    wmi: 'YS2',
    descriptor: 'R4X20',
    plant: 'S',
    fuel: 'DIESEL',
    years: [2016, 2025],
    yearlyKm: [90000, 140000],
    weight: 3,
  },
  {
    make: 'DAF',
    model: 'XF 480',
    wmi: 'XLR',
    descriptor: 'TE47M',
    plant: 'E',
    fuel: 'DIESEL',
    years: [2017, 2025],
    yearlyKm: [90000, 140000],
    weight: 3,
  },
  {
    make: 'MAN',
    model: 'TGX 18.510',
    wmi: 'WMA',
    descriptor: '06XZZ',
    plant: 'M',
    fuel: 'LPG',
    years: [2018, 2024],
    yearlyKm: [80000, 130000],
    weight: 1,
  },
  {
    make: 'Volkswagen',
    model: 'ID. Buzz Cargo',
    wmi: 'WV1',
    descriptor: 'ZZZEB',
    plant: 'H',
    fuel: 'ELECTRIC',
    years: [2022, 2026],
    yearlyKm: [15000, 30000],
    weight: 5,
  },
  {
    make: 'Renault',
    model: 'Kangoo E-Tech',
    wmi: 'VF1',
    descriptor: 'FW000',
    plant: 'M',
    fuel: 'ELECTRIC',
    years: [2021, 2026],
    yearlyKm: [12000, 25000],
    weight: 4,
  },
  {
    make: 'Peugeot',
    model: 'e-Expert',
    wmi: 'VF3',
    descriptor: 'VZKXZ',
    plant: 'V',
    fuel: 'ELECTRIC',
    years: [2020, 2026],
    yearlyKm: [15000, 30000],
    weight: 3,
  },
  {
    make: 'Toyota',
    model: 'Corolla Touring Sports',
    wmi: 'SB1',
    descriptor: 'ZK3BE',
    plant: 'T',
    fuel: 'HYBRID',
    years: [2019, 2026],
    yearlyKm: [20000, 40000],
    weight: 4,
  },
  {
    make: 'Kia',
    model: 'Niro Plug-in',
    wmi: 'KNA',
    descriptor: 'C8147',
    plant: '7',
    fuel: 'PLUGIN_HYBRID',
    years: [2019, 2025],
    yearlyKm: [15000, 30000],
    weight: 2,
  },
  {
    make: 'Opel',
    model: 'Vivaro',
    wmi: 'W0L',
    descriptor: 'V7GH4',
    plant: 'V',
    fuel: 'DIESEL',
    years: [2019, 2025],
    yearlyKm: [20000, 45000],
    weight: 3,
  },
  {
    make: 'Fiat',
    model: 'Doblo Natural Power',
    wmi: 'ZFA',
    descriptor: '26300',
    plant: 'B',
    fuel: 'CNG',
    years: [2015, 2021],
    yearlyKm: [15000, 30000],
    weight: 1,
  },
  {
    make: 'Skoda',
    model: 'Octavia Combi',
    wmi: 'TMB',
    descriptor: 'JG7NE',
    plant: 'M',
    fuel: 'GASOLINE',
    years: [2017, 2025],
    yearlyKm: [20000, 40000],
    weight: 3,
  },
  {
    make: 'Toyota',
    model: 'Mirai',
    wmi: 'JTD',
    descriptor: 'B3FD0',
    plant: '3',
    fuel: 'HYDROGEN',
    years: [2021, 2025],
    yearlyKm: [15000, 25000],
    weight: 1,
  },
];

export const COLORS = [
  'White',
  'White',
  'White',
  'Silver',
  'Grey',
  'Black',
  'Blue',
  'Red',
  'Yellow',
  'Green',
] as const;

export interface CityInfo {
  name: string;
  /** Plate prefix (German "Unterscheidungszeichen") or French department number. */
  code: string;
}

export const ACME_REGIONS: ReadonlyArray<{ label: string; cities: readonly CityInfo[] }> = [
  {
    label: 'North',
    cities: [
      { name: 'Hamburg', code: 'HH' },
      { name: 'Bremen', code: 'HB' },
      { name: 'Hannover', code: 'H' },
    ],
  },
  {
    label: 'South',
    cities: [
      { name: 'Munich', code: 'M' },
      { name: 'Stuttgart', code: 'S' },
      { name: 'Nuremberg', code: 'N' },
    ],
  },
  {
    label: 'East',
    cities: [
      { name: 'Berlin', code: 'B' },
      { name: 'Leipzig', code: 'L' },
      { name: 'Dresden', code: 'DD' },
    ],
  },
  {
    label: 'West',
    cities: [
      { name: 'Cologne', code: 'K' },
      { name: 'Dusseldorf', code: 'D' },
      { name: 'Dortmund', code: 'DO' },
    ],
  },
  {
    label: 'Central',
    cities: [
      { name: 'Frankfurt', code: 'F' },
      { name: 'Kassel', code: 'KS' },
      { name: 'Erfurt', code: 'EF' },
    ],
  },
  {
    label: 'Baltic',
    cities: [
      { name: 'Kiel', code: 'KI' },
      { name: 'Rostock', code: 'HRO' },
      { name: 'Lubeck', code: 'HL' },
    ],
  },
  {
    label: 'Rhine',
    cities: [
      { name: 'Mainz', code: 'MZ' },
      { name: 'Mannheim', code: 'MA' },
      { name: 'Karlsruhe', code: 'KA' },
    ],
  },
  {
    label: 'Alpine',
    cities: [
      { name: 'Augsburg', code: 'A' },
      { name: 'Regensburg', code: 'R' },
      { name: 'Ulm', code: 'UL' },
    ],
  },
];

export const GLOBEX_REGIONS: ReadonlyArray<{ label: string; cities: readonly CityInfo[] }> = [
  {
    label: 'Rhone-Alpes',
    cities: [
      { name: 'Lyon', code: '69' },
      { name: 'Grenoble', code: '38' },
    ],
  },
  {
    label: 'Provence',
    cities: [
      { name: 'Marseille', code: '13' },
      { name: 'Nice', code: '06' },
    ],
  },
  {
    label: 'Ile-de-France',
    cities: [
      { name: 'Paris', code: '75' },
      { name: 'Versailles', code: '78' },
    ],
  },
  {
    label: 'Occitanie',
    cities: [
      { name: 'Toulouse', code: '31' },
      { name: 'Montpellier', code: '34' },
    ],
  },
];

export const TEAM_NAMES = ['Cold Chain', 'Express', 'Heavy Haul', 'Last Mile'] as const;

export const GERMAN_FIRST = [
  'Anna',
  'Lukas',
  'Mia',
  'Felix',
  'Sophie',
  'Jonas',
  'Lena',
  'Paul',
  'Marie',
  'Leon',
  'Hannah',
  'Tim',
  'Laura',
  'Max',
  'Julia',
  'Elias',
];
export const GERMAN_LAST = [
  'Muller',
  'Schmidt',
  'Schneider',
  'Fischer',
  'Weber',
  'Meyer',
  'Wagner',
  'Becker',
  'Schulz',
  'Hoffmann',
  'Koch',
  'Richter',
  'Klein',
  'Wolf',
];
export const FRENCH_FIRST = [
  'Camille',
  'Louis',
  'Chloe',
  'Hugo',
  'Manon',
  'Lucas',
  'Emma',
  'Jules',
  'Lea',
  'Gabriel',
  'Ines',
  'Arthur',
];
export const FRENCH_LAST = [
  'Martin',
  'Bernard',
  'Dubois',
  'Thomas',
  'Robert',
  'Richard',
  'Petit',
  'Durand',
  'Leroy',
  'Moreau',
  'Simon',
  'Laurent',
];

/** Lower-case ASCII slug for e-mail addresses and tags. */
export function slug(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/**
 * The shipped DTC tables (data/dtc, built by scripts/build-dtc-data.ts), loaded once per process
 * on first use: OBDex (CC0, EN/DE details), Wal33D (MIT, generic and manufacturer titles), and the
 * project's German titles of common P0 codes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DATA_DIR } from '../../paths';

export const DTC_DATA_DIR = join(DATA_DIR, 'dtc');

export type Localized = Record<string, string>;

export interface ObdexRecord {
  category: string;
  title: Localized;
  description?: Localized;
  components?: string[];
  causes?: { likelihood: string | null; label: Localized }[];
  symptoms?: Localized[];
  repair?: {
    difficulty?: string;
    diy_possible?: boolean;
    estimated_cost_eur?: number[];
    estimated_hours?: number[];
  };
  flags?: {
    mil?: boolean;
    emissions_relevant?: boolean;
    drive_cycle_required?: boolean;
    limp_mode_possible?: boolean;
  };
  related?: string[];
}

export interface DtcCatalog {
  obdex: Record<string, ObdexRecord>;
  generic: Record<string, string>;
  makes: Record<string, Record<string, string>>;
  germanTitles: Record<string, string>;
}

let catalog: DtcCatalog | null = null;

export function dtcCatalog(): DtcCatalog {
  if (!catalog) {
    const read = (file: string) => JSON.parse(readFileSync(join(DTC_DATA_DIR, file), 'utf8'));
    const wal33d = read('wal33d.json') as {
      generic: Record<string, string>;
      makes: Record<string, Record<string, string>>;
    };
    catalog = {
      obdex: read('obdex.json'),
      generic: wal33d.generic,
      makes: wal33d.makes,
      germanTitles: read('supplement-de.json'),
    };
  }
  return catalog;
}

/** Brand names (lower case) to the Wal33D table keys to try, most specific first. */
const MAKE_TABLES: Record<string, string[]> = {
  chevrolet: ['chevy', 'gm'],
  chevy: ['chevy', 'gm'],
  buick: ['buick', 'gm'],
  cadillac: ['cadillac', 'gm'],
  gmc: ['gmc', 'gm'],
  pontiac: ['pontiac', 'gm'],
  oldsmobile: ['oldsmobile', 'gm'],
  saturn: ['saturn', 'gm'],
  geo: ['geo', 'gm'],
  gm: ['gm'],
  'general motors': ['gm'],
  opel: ['gm'],
  vauxhall: ['gm'],
  acura: ['acura', 'honda'],
  honda: ['honda'],
  lexus: ['lexus', 'toyota'],
  toyota: ['toyota'],
  scion: ['toyota'],
  infiniti: ['infiniti', 'nissan'],
  nissan: ['nissan'],
  datsun: ['nissan'],
  ford: ['ford'],
  lincoln: ['lincoln', 'ford'],
  mercury: ['mercury', 'ford'],
  chrysler: ['chrysler'],
  dodge: ['dodge', 'chrysler'],
  jeep: ['jeep', 'chrysler'],
  plymouth: ['plymouth', 'chrysler'],
  ram: ['dodge', 'chrysler'],
  volkswagen: ['volkswagen'],
  vw: ['volkswagen'],
  audi: ['audi', 'volkswagen'],
  seat: ['volkswagen'],
  škoda: ['volkswagen'],
  skoda: ['volkswagen'],
  bmw: ['bmw'],
  mini: ['bmw'],
  mercedes: ['mercedes'],
  'mercedes-benz': ['mercedes'],
  'mercedes-amg': ['mercedes'],
  smart: ['mercedes'],
  jaguar: ['jaguar'],
  kia: ['kia'],
  hyundai: ['kia'],
  mazda: ['mazda'],
  mitsubishi: ['mitsubishi'],
  subaru: ['subaru'],
  suzuki: ['suzuki'],
};

/** The manufacturer tables for a brand name, or [] when the data has none. */
export function makeTables(make: string | null | undefined): string[] {
  if (!make) return [];
  const key = make.trim().toLowerCase();
  const tables = MAKE_TABLES[key] ?? (dtcCatalog().makes[key] ? [key] : []);
  return tables.filter((t) => dtcCatalog().makes[t]);
}

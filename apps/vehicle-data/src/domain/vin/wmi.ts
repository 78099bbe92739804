/**
 * World manufacturer identifiers (ISO 3780): the first three VIN characters. This table names the
 * brand of the common WMIs worldwide (vPIC's own WMI table, read through corgi, covers the rest but
 * names some European groups oddly, e.g. VF1 as "Eagle"), and the region/country of the first two
 * characters.
 */

export type VinRegion = 'africa' | 'asia' | 'europe' | 'north america' | 'oceania' | 'south america';

export const VIN_REGIONS: readonly VinRegion[] = [
  'africa',
  'asia',
  'europe',
  'north america',
  'oceania',
  'south america',
];

export interface WmiInfo {
  make: string;
  manufacturer: string;
}

const W = (make: string, manufacturer = make): WmiInfo => ({ make, manufacturer });

export const WMI: Record<string, WmiInfo> = {
  // Germany
  WAU: W('Audi', 'Audi AG'),
  WA1: W('Audi', 'Audi AG'),
  TRU: W('Audi', 'Audi Hungaria'),
  WBA: W('BMW', 'BMW AG'),
  WBS: W('BMW', 'BMW M GmbH'),
  WBY: W('BMW', 'BMW AG'),
  WMW: W('MINI', 'BMW AG'),
  WDB: W('Mercedes-Benz', 'Mercedes-Benz AG'),
  WDD: W('Mercedes-Benz', 'Mercedes-Benz AG'),
  W1K: W('Mercedes-Benz', 'Mercedes-Benz AG'),
  W1N: W('Mercedes-Benz', 'Mercedes-Benz AG'),
  WDC: W('Mercedes-Benz', 'Mercedes-Benz AG'),
  W1V: W('Mercedes-Benz', 'Mercedes-Benz AG'),
  WDF: W('Mercedes-Benz', 'Mercedes-Benz AG'),
  WMX: W('Mercedes-AMG', 'Mercedes-AMG GmbH'),
  WVW: W('Volkswagen', 'Volkswagen AG'),
  WV1: W('Volkswagen', 'Volkswagen Commercial Vehicles'),
  WV2: W('Volkswagen', 'Volkswagen Commercial Vehicles'),
  WVG: W('Volkswagen', 'Volkswagen AG'),
  WP0: W('Porsche', 'Dr. Ing. h.c. F. Porsche AG'),
  WP1: W('Porsche', 'Dr. Ing. h.c. F. Porsche AG'),
  W0L: W('Opel', 'Opel Automobile GmbH'),
  W0V: W('Opel', 'Opel Automobile GmbH'),
  WF0: W('Ford', 'Ford-Werke GmbH'),
  WMA: W('MAN', 'MAN Truck & Bus'),
  WME: W('smart', 'smart GmbH'),
  // France
  VF1: W('Renault', 'Renault Group'),
  VF6: W('Renault Trucks', 'Renault Trucks'),
  VF2: W('Renault', 'Renault Group'),
  VF3: W('Peugeot', 'Automobiles Peugeot'),
  VF7: W('Citroën', 'Automobiles Citroën'),
  VR3: W('Peugeot', 'Stellantis'),
  VR7: W('Citroën', 'Stellantis'),
  VR1: W('DS', 'Stellantis'),
  UU1: W('Dacia', 'Automobile Dacia'),
  VNV: W('Nissan', 'Renault Group'),
  // Italy
  ZFA: W('Fiat', 'FCA Italy'),
  ZFF: W('Ferrari', 'Ferrari S.p.A.'),
  ZAR: W('Alfa Romeo', 'FCA Italy'),
  ZLA: W('Lancia', 'FCA Italy'),
  ZHW: W('Lamborghini', 'Automobili Lamborghini'),
  ZAM: W('Maserati', 'Maserati S.p.A.'),
  ZCF: W('Iveco', 'Iveco S.p.A.'),
  // Spain, Czechia, Slovakia, Sweden, UK, Belgium, Netherlands
  VSS: W('SEAT', 'SEAT S.A.'),
  VS6: W('Ford', 'Ford España'),
  VSK: W('Nissan', 'Nissan Motor Ibérica'),
  TMB: W('Škoda', 'Škoda Auto'),
  TMA: W('Hyundai', 'Hyundai Motor Manufacturing Czech'),
  TMK: W('Karosa', 'Karosa'),
  TNE: W('Iveco', 'Iveco Czech Republic'),
  KNE: W('Kia', 'Kia Europe'),
  YV1: W('Volvo', 'Volvo Car Corporation'),
  YV4: W('Volvo', 'Volvo Car Corporation'),
  YS2: W('Scania', 'Scania AB'),
  YS3: W('Saab', 'Saab Automobile'),
  YV2: W('Volvo Trucks', 'AB Volvo'),
  LVY: W('Volvo', 'Volvo Cars Asia Pacific'),
  SAJ: W('Jaguar', 'Jaguar Land Rover'),
  SAL: W('Land Rover', 'Jaguar Land Rover'),
  SCC: W('Lotus', 'Lotus Cars'),
  SCF: W('Aston Martin', 'Aston Martin Lagonda'),
  SCB: W('Bentley', 'Bentley Motors'),
  SCA: W('Rolls-Royce', 'Rolls-Royce Motor Cars'),
  SHH: W('Honda', 'Honda of the UK'),
  SJN: W('Nissan', 'Nissan Motor Manufacturing UK'),
  SB1: W('Toyota', 'Toyota Motor Europe'),
  XLR: W('DAF', 'DAF Trucks'),
  YE2: W('Van Hool', 'Van Hool'),
  // Asia
  JHM: W('Honda', 'Honda Motor Co.'),
  JHL: W('Honda', 'Honda Motor Co.'),
  JT2: W('Toyota', 'Toyota Motor Corporation'),
  JTD: W('Toyota', 'Toyota Motor Corporation'),
  JTE: W('Toyota', 'Toyota Motor Corporation'),
  JTH: W('Lexus', 'Toyota Motor Corporation'),
  JTM: W('Toyota', 'Toyota Motor Corporation'),
  JN1: W('Nissan', 'Nissan Motor Co.'),
  JN8: W('Nissan', 'Nissan Motor Co.'),
  JM1: W('Mazda', 'Mazda Motor Corporation'),
  JMZ: W('Mazda', 'Mazda Motor Europe'),
  JF1: W('Subaru', 'Subaru Corporation'),
  JS2: W('Suzuki', 'Suzuki Motor Corporation'),
  JA3: W('Mitsubishi', 'Mitsubishi Motors'),
  JMB: W('Mitsubishi', 'Mitsubishi Motors'),
  KMH: W('Hyundai', 'Hyundai Motor Company'),
  KNA: W('Kia', 'Kia Corporation'),
  KND: W('Kia', 'Kia Corporation'),
  LFV: W('Volkswagen', 'FAW-Volkswagen'),
  LSV: W('Volkswagen', 'SAIC Volkswagen'),
  LRW: W('Tesla', 'Tesla Shanghai'),
  LGX: W('BYD', 'BYD Auto'),
  LC0: W('BYD', 'BYD Auto'),
  LSJ: W('MG', 'SAIC Motor'),
  MAT: W('Tata', 'Tata Motors'),
  MA1: W('Mahindra', 'Mahindra & Mahindra'),
  // North America
  '1HG': W('Honda', 'American Honda Motor Co.'),
  '1FA': W('Ford', 'Ford Motor Company'),
  '1FT': W('Ford', 'Ford Motor Company'),
  '1G1': W('Chevrolet', 'General Motors'),
  '1GC': W('Chevrolet', 'General Motors'),
  '1GT': W('GMC', 'General Motors'),
  '1C4': W('Jeep', 'FCA US'),
  '1J4': W('Jeep', 'Chrysler'),
  '2HG': W('Honda', 'Honda of Canada'),
  '2T1': W('Toyota', 'Toyota Canada'),
  '3VW': W('Volkswagen', 'Volkswagen de México'),
  '4T1': W('Toyota', 'Toyota Motor Manufacturing Kentucky'),
  '5YJ': W('Tesla', 'Tesla, Inc.'),
  '7SA': W('Tesla', 'Tesla, Inc.'),
  '5UX': W('BMW', 'BMW Manufacturing Co.'),
  '5N1': W('Nissan', 'Nissan North America'),
  '19X': W('Honda', 'American Honda Motor Co.'),
};

/** ISO 3780 country ranges by the first character and the range of the second one. */
const COUNTRIES: [string, string, string][] = [
  ['A', 'A-H', 'South Africa'],
  ['J', 'A-Z', 'Japan'],
  ['J', '0-9', 'Japan'],
  ['K', 'L-R', 'South Korea'],
  ['K', '5-0', 'South Korea'],
  ['L', 'A-Z', 'China'],
  ['L', '0-9', 'China'],
  ['M', 'A-E', 'India'],
  ['M', 'F-K', 'Indonesia'],
  ['M', 'L-R', 'Thailand'],
  ['N', 'L-R', 'Turkey'],
  ['P', 'L-R', 'Malaysia'],
  ['S', 'A-M', 'United Kingdom'],
  ['S', 'N-T', 'Germany'],
  ['S', 'U-Z', 'Poland'],
  ['T', 'A-H', 'Switzerland'],
  ['T', 'J-P', 'Czechia'],
  ['T', 'R-V', 'Hungary'],
  ['T', 'W-Z', 'Portugal'],
  ['T', '1-1', 'Portugal'],
  ['U', 'H-M', 'Denmark'],
  ['U', 'N-T', 'Ireland'],
  ['U', 'U-Z', 'Romania'],
  ['V', 'A-E', 'Austria'],
  ['V', 'F-R', 'France'],
  ['V', 'S-W', 'Spain'],
  ['V', 'X-Z', 'Serbia'],
  ['W', 'A-Z', 'Germany'],
  ['W', '0-9', 'Germany'],
  ['X', 'L-R', 'Netherlands'],
  ['X', 'S-W', 'Russia'],
  ['X', '3-0', 'Russia'],
  ['Y', 'A-E', 'Belgium'],
  ['Y', 'F-K', 'Finland'],
  ['Y', 'S-W', 'Sweden'],
  ['Z', 'A-R', 'Italy'],
  ['1', 'A-Z', 'United States'],
  ['1', '0-9', 'United States'],
  ['4', 'A-Z', 'United States'],
  ['4', '0-9', 'United States'],
  ['5', 'A-Z', 'United States'],
  ['5', '0-9', 'United States'],
  ['2', 'A-Z', 'Canada'],
  ['2', '0-9', 'Canada'],
  ['3', 'A-W', 'Mexico'],
  ['3', 'X-Z', 'Costa Rica'],
  ['6', 'A-W', 'Australia'],
  ['7', 'A-E', 'New Zealand'],
  ['8', 'A-E', 'Argentina'],
  ['8', 'F-K', 'Chile'],
  ['8', 'X-Z', 'Venezuela'],
  ['9', 'A-E', 'Brazil'],
  ['9', '3-9', 'Brazil'],
  ['9', 'F-K', 'Colombia'],
];
const ORDER = 'ABCDEFGHJKLMNPRSTUVWXYZ1234567890';

export function vinRegion(vin: string): VinRegion {
  const c = vin[0]!;
  if (c >= 'A' && c <= 'H') return 'africa';
  if (c >= 'J' && c <= 'R') return 'asia';
  if (c >= 'S' && c <= 'Z') return 'europe';
  if (c >= '1' && c <= '5') return 'north america';
  if (c === '6' || c === '7') return 'oceania';
  return 'south america';
}

export function vinCountry(vin: string): string | null {
  const [a, b] = [vin[0]!, vin[1]!];
  for (const [first, range, country] of COUNTRIES) {
    if (first !== a) continue;
    const [from, to] = range.split('-') as [string, string];
    const i = ORDER.indexOf(b);
    if (i >= ORDER.indexOf(from) && i <= ORDER.indexOf(to)) return country;
  }
  return null;
}

export function wmiOf(vin: string): WmiInfo | null {
  return WMI[vin.slice(0, 3)] ?? null;
}

/**
 * Registration plate formats per country. A plate is normalized (upper case, no spaces, dashes or
 * dots) and must match one of its country's current or previous formats. `country` is an ISO 3166
 * alpha-2 code (UK is taken as GB) or, for the United States, US or US-<state> (e.g. US-CA).
 */
import { badInput } from '@fleetgraph/paging';

interface CountryFormats {
  name: string;
  formats: { pattern: RegExp; example: string }[];
}

const NL_SIDECODES = [
  /^[A-Z]{2}\d{2}\d{2}$/,
  /^\d{2}\d{2}[A-Z]{2}$/,
  /^\d{2}[A-Z]{2}\d{2}$/,
  /^[A-Z]{2}\d{2}[A-Z]{2}$/,
  /^[A-Z]{2}[A-Z]{2}\d{2}$/,
  /^\d{2}[A-Z]{2}[A-Z]{2}$/,
  /^\d{2}[A-Z]{3}\d$/,
  /^\d[A-Z]{3}\d{2}$/,
  /^[A-Z]{2}\d{3}[A-Z]$/,
  /^[A-Z]\d{3}[A-Z]{2}$/,
  /^[A-Z]{3}\d{2}[A-Z]$/,
  /^[A-Z]\d{2}[A-Z]{3}$/,
  /^\d[A-Z]{2}\d{3}$/,
  /^\d{3}[A-Z]{2}\d$/,
];
const US_GENERIC = { pattern: /^[A-Z0-9]{1,8}$/, example: '1 to 8 letters and digits' };

export const PLATE_FORMATS: Record<string, CountryFormats> = {
  FR: {
    name: 'French',
    formats: [
      { pattern: /^[A-HJ-NP-TV-Z]{2}\d{3}[A-HJ-NP-TV-Z]{2}$/, example: 'AB-123-CD (SIV, since 2009)' },
      { pattern: /^\d{1,4}[A-Z]{1,3}(\d{2}|2A|2B|97\d)$/, example: '1234 AB 56 (FNI, before 2009)' },
    ],
  },
  DE: {
    name: 'German',
    formats: [
      {
        pattern: /^[A-ZÄÖÜ]{1,3}[A-Z]{1,2}[1-9]\d{0,3}[EH]?$/,
        example: 'M-AB 1234 (district, letters, number; E for electric, H for historic)',
      },
    ],
  },
  ES: {
    name: 'Spanish',
    formats: [
      { pattern: /^\d{4}[BCDFGHJKLMNPRSTVWXYZ]{3}$/, example: '1234 BCD (since 2000)' },
      { pattern: /^[A-Z]{1,2}\d{4}[A-Z]{1,2}$/, example: 'M 1234 AB (provincial, before 2000)' },
    ],
  },
  IT: {
    name: 'Italian',
    formats: [{ pattern: /^[A-HJ-NPR-TV-Z]{2}\d{3}[A-HJ-NPR-TV-Z]{2}$/, example: 'AB 123 CD' }],
  },
  NL: {
    name: 'Dutch',
    formats: NL_SIDECODES.map((pattern) => ({ pattern, example: '1-KBB-34 (one of the sidecodes)' })),
  },
  BE: {
    name: 'Belgian',
    formats: [
      { pattern: /^[1-9][A-Z]{3}\d{3}$/, example: '1-ABC-234 (since 2010)' },
      { pattern: /^[A-Z]{3}\d{3}$/, example: 'ABC-123 (before 2010)' },
    ],
  },
  GB: {
    name: 'British',
    formats: [
      { pattern: /^[A-Z]{2}\d{2}[A-Z]{3}$/, example: 'AB12 CDE (since 2001)' },
      { pattern: /^[A-Z]\d{1,3}[A-Z]{3}$/, example: 'A123 BCD (prefix, 1983-2001)' },
      { pattern: /^[A-Z]{3}\d{1,3}[A-Z]$/, example: 'ABC 123D (suffix, 1963-1983)' },
    ],
  },
  US: { name: 'United States', formats: [US_GENERIC] },
  'US-CA': {
    name: 'California',
    formats: [
      { pattern: /^\d[A-Z]{3}\d{3}$/, example: '7ABC123' },
      { pattern: /^[A-Z0-9]{2,7}$/, example: 'personalized, 2 to 7 characters' },
    ],
  },
  'US-NY': {
    name: 'New York',
    formats: [
      { pattern: /^[A-Z]{3}\d{4}$/, example: 'ABC1234' },
      { pattern: /^[A-Z0-9]{2,8}$/, example: 'personalized, 2 to 8 characters' },
    ],
  },
  'US-TX': {
    name: 'Texas',
    formats: [
      { pattern: /^[A-Z]{3}\d{4}$/, example: 'ABC1234' },
      { pattern: /^[A-Z0-9]{2,7}$/, example: 'personalized, 2 to 7 characters' },
    ],
  },
  'US-FL': {
    name: 'Florida',
    formats: [{ pattern: /^[A-Z0-9]{4,7}$/, example: 'ABCD12 (4 to 7 characters)' }],
  },
};

export function normalizePlate(plate: string): string {
  return plate
    .normalize('NFC')
    .replace(/[\s\-.·]/g, '')
    .toUpperCase();
}

/** Canonical country key: FR, DE, ..., GB for UK, US or US-XX for a state. */
export function normalizeCountry(country: string): string {
  const c = country.trim().toUpperCase().replace('_', '-');
  if (c === 'UK') return 'GB';
  if (/^US-[A-Z]{2}$/.test(c) || /^[A-Z]{2}$/.test(c)) return c;
  throw badInput(
    `country must be an ISO 3166 alpha-2 code such as FR, or US-<state> such as US-CA (got "${country}").`,
    { argument: 'country' },
  );
}

export interface CheckedPlate {
  country: string;
  plate: string;
}

/** Normalizes and validates a plate for its country; BAD_USER_INPUT saying the expected formats. */
export function checkPlate(plate: string, country: string): CheckedPlate {
  const key = normalizeCountry(country);
  const rules = countryFormats(key);
  const normalized = normalizePlate(plate);
  if (normalized === '' || !rules.formats.some((f) => f.pattern.test(normalized))) {
    const examples = [...new Set(rules.formats.map((f) => f.example))].join('; ');
    throw badInput(`"${plate}" is not a valid ${rules.name} plate; expected ${examples}.`, {
      argument: 'plate',
    });
  }
  return { country: key, plate: normalized };
}

/** The formats of a normalized country key; BAD_USER_INPUT for a country without plate rules. */
export function countryFormats(key: string): CountryFormats {
  const rules =
    PLATE_FORMATS[key] ??
    (key.startsWith('US-') ? { name: `US state ${key.slice(3)}`, formats: [US_GENERIC] } : null);
  if (!rules) {
    throw badInput(
      `Plates of ${key} are not supported; supported countries: ${Object.keys(PLATE_FORMATS)
        .filter((k) => !k.startsWith('US-'))
        .join(', ')} and US-<state>.`,
      {
        argument: 'country',
      },
    );
  }
  return rules;
}

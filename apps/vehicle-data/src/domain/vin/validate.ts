/**
 * VIN rules (ISO 3779; 49 CFR 565 for North America):
 *   - 17 characters, digits and capital letters except I, O and Q;
 *   - position 9 is a check digit (0-9 or X) that is mandatory in North America (WMI 1-5) and
 *     when the caller says the vehicle is North American; elsewhere it is checked only as a hint;
 *   - position 10 is the model year code in North America, and by most European and Asian makers.
 * Spaces, dashes and dots are ignored; lower case is accepted.
 */
import { badInput } from '@fleetgraph/paging';

const WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2];
const VALUES: Record<string, number> = {
  A: 1,
  B: 2,
  C: 3,
  D: 4,
  E: 5,
  F: 6,
  G: 7,
  H: 8,
  J: 1,
  K: 2,
  L: 3,
  M: 4,
  N: 5,
  P: 7,
  R: 9,
  S: 2,
  T: 3,
  U: 4,
  V: 5,
  W: 6,
  X: 7,
  Y: 8,
  Z: 9,
};
const YEAR_CODES = 'ABCDEFGHJKLMNPRSTVWXY123456789';

export function normalizeVin(input: string): string {
  return input.replace(/[\s\-.]/g, '').toUpperCase();
}

/** Throws BAD_USER_INPUT saying what is wrong; returns the normalized VIN. */
export function validateVin(input: string, argument = 'vin'): string {
  const vin = normalizeVin(input);
  if (vin.length !== 17)
    throw badInput(`${argument} must have 17 characters (got ${vin.length}: "${input}").`, { argument });
  const forbidden = [...vin]
    .map((c, i) => [c, i + 1] as const)
    .filter(([c]) => c === 'I' || c === 'O' || c === 'Q');
  if (forbidden.length) {
    throw badInput(
      `${argument} must not contain the letters I, O or Q (found ${forbidden.map(([c, p]) => `${c} at position ${p}`).join(', ')}).`,
      { argument },
    );
  }
  const invalid = [...vin].map((c, i) => [c, i + 1] as const).filter(([c]) => !/[0-9A-Z]/.test(c));
  if (invalid.length) {
    throw badInput(
      `${argument} may only contain digits and letters (found ${invalid.map(([c, p]) => `"${c}" at position ${p}`).join(', ')}).`,
      { argument },
    );
  }
  return vin;
}

export function expectedCheckDigit(vin: string): string {
  const sum = [...vin].reduce(
    (acc, c, i) => acc + (/[0-9]/.test(c) ? Number(c) : (VALUES[c] ?? 0)) * WEIGHTS[i]!,
    0,
  );
  const r = sum % 11;
  return r === 10 ? 'X' : String(r);
}

export function isNorthAmerican(vin: string): boolean {
  return vin[0]! >= '1' && vin[0]! <= '5';
}

export function assertCheckDigit(vin: string, argument = 'vin'): void {
  const expected = expectedCheckDigit(vin);
  if (vin[8] !== expected) {
    throw badInput(
      `${argument} ${vin} has a wrong check digit: position 9 is "${vin[8]}" but the other characters give "${expected}" (the check digit is mandatory for North American VINs). Check the VIN for a typing error.`,
      { argument },
    );
  }
}

/**
 * Model year from position 10: letters and digits cycle every 30 years; position 7 being a letter
 * means 2010-2039 for passenger vehicles in North America. Elsewhere the most recent year not in
 * the future is taken. Null for 0, Z, U and other non-year characters.
 */
export function modelYearOf(vin: string, now = new Date()): number | null {
  const index = YEAR_CODES.indexOf(vin[9]!);
  if (index < 0) return null;
  const latest = now.getUTCFullYear() + 1;
  if (isNorthAmerican(vin)) {
    const year = (/[A-Z]/.test(vin[6]!) ? 2010 : 1980) + index;
    return year > latest ? year - 30 : year;
  }
  let year = 1980 + index;
  while (year + 30 <= latest) year += 30;
  return year;
}

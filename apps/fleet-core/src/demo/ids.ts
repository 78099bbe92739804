/**
 * Deterministic building blocks for seed data: a seeded PRNG (mulberry32), name-based UUIDs
 * (RFC 4122 version 5: SHA-1 of a namespace and a name), IMEIs with a Luhn check digit and VINs
 * with the ISO 3779 / FMVSS 115 check digit in position 9.
 */
import { createHash } from 'node:crypto';

/** The namespace of every seeded id: ids depend only on this and the entity's natural name. */
export const SEED_NAMESPACE = '6f1c2a4e-3b7d-5e90-8a12-f1ee79a0a000';

export function uuidV5(name: string, namespace: string = SEED_NAMESPACE): string {
  const ns = Buffer.from(namespace.replace(/-/g, ''), 'hex');
  const bytes = createHash('sha1').update(ns).update(name, 'utf8').digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A small, fast, seedable PRNG; the same seed gives the same sequence on every platform. */
export class Rng {
  private state: number;
  constructor(seed: number | string) {
    this.state = typeof seed === 'number' ? seed >>> 0 : Rng.hashSeed(seed);
  }
  static hashSeed(text: string): number {
    return createHash('sha1').update(text).digest().readUInt32BE(0);
  }
  /** mulberry32: a float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** An integer in [min, max] (both inclusive). */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(probability: number): boolean {
    return this.next() < probability;
  }
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)]!;
  }
  /** Picks by weight: `[[value, weight], ...]`. */
  weighted<T>(entries: ReadonlyArray<readonly [T, number]>): T {
    const total = entries.reduce((sum, [, w]) => sum + w, 0);
    let roll = this.next() * total;
    for (const [value, weight] of entries) {
      roll -= weight;
      if (roll < 0) return value;
    }
    return entries[entries.length - 1]![0];
  }
}

/** The Luhn check digit of a string of digits (as used in position 15 of an IMEI). */
export function luhnCheckDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    // Doubling starts from the rightmost payload digit.
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

/** A 15-digit IMEI: 8-digit TAC + 6-digit serial + Luhn check digit. */
export function makeImei(tac: string, serial: number): string {
  const body = `${tac}${String(serial).padStart(6, '0')}`;
  if (!/^\d{14}$/.test(body)) throw new Error(`bad IMEI body ${body}`);
  return `${body}${luhnCheckDigit(body)}`;
}

export function isValidImei(value: string): boolean {
  return /^\d{15}$/.test(value) && luhnCheckDigit(value.slice(0, 14)) === Number(value[14]);
}

/** Letters and digits a VIN may hold (never I, O or Q). */
export const VIN_PATTERN = /^[A-HJ-NPR-Z0-9]{17}$/;
export const VIN_CHARSET = 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789';

/** ISO 3779 weights of positions 1-17 (position 9, the check digit itself, weighs 0). */
const VIN_WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2];
/** ISO 3779 transliteration of letters (I, O and Q never occur: '_'), A..Z. */
const VIN_LETTER_VALUES = '12345678_12345_7_923456789';

/**
 * The check digit (position 9) of a VIN: the weighted sum of the transliterated characters modulo
 * 11, 10 written as X. The same rule vehicle-data enforces when decoding (kept here so fleet-core
 * does not import another subgraph).
 */
export function vinCheckDigit(vin: string): string {
  let sum = 0;
  for (let i = 0; i < vin.length && i < VIN_WEIGHTS.length; i++) {
    const c = vin[i]!;
    const letter = VIN_LETTER_VALUES[c.charCodeAt(0) - 65];
    const value = c >= '0' && c <= '9' ? Number(c) : letter && letter !== '_' ? Number(letter) : 0;
    sum += value * VIN_WEIGHTS[i]!;
  }
  const r = sum % 11;
  return r === 10 ? 'X' : String(r);
}

const YEAR_CODES = 'ABCDEFGHJKLMNPRSTVWXY123456789';
/** The model-year character of position 10 (A = 1980 or 2010, cycling every 30 years). */
export function vinYearCode(year: number): string {
  return YEAR_CODES[(((year - 1980) % 30) + 30) % 30]!;
}

/** A VIN from its world manufacturer id (3), descriptor (5), year, plant (1) and serial; position 9 is the check digit. */
export function makeVin(
  wmi: string,
  descriptor: string,
  year: number,
  plant: string,
  serial: number,
): string {
  const draft = `${wmi}${descriptor}0${vinYearCode(year)}${plant}${String(serial).padStart(6, '0')}`;
  if (!VIN_PATTERN.test(draft)) throw new Error(`bad VIN draft ${draft}`);
  return `${draft.slice(0, 8)}${vinCheckDigit(draft)}${draft.slice(9)}`;
}

export function hasValidVinCheckDigit(vin: string): boolean {
  return VIN_PATTERN.test(vin) && vinCheckDigit(vin) === vin[8];
}

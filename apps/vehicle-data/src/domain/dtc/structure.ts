/**
 * Structural decoding of an OBD-II / EOBD diagnostic trouble code (SAE J2012, ISO 15031-6):
 *
 *   P 0 3 00
 *   | | | `-- fault index
 *   | | `---- subsystem (third character)
 *   | `------ 0, 2 (and P34-P39, B3/C3/U3): generic, defined by SAE; 1 (and P30-P33, B2/C2/U2): manufacturer-specific
 *   `-------- P powertrain, B body, C chassis, U network
 *
 * A UDS (ISO 14229) code may carry a failure-type byte: `P0300-1F` or `P03001F`.
 */
import { badInput } from '@fleetgraph/paging';

export type DtcSystem = 'P' | 'B' | 'C' | 'U';

export interface DtcStructure {
  code: string;
  system: DtcSystem;
  systemName: string;
  generic: boolean;
  /** third character's subsystem, when SAE defines one (P0/P2 only) */
  subsystem: string | null;
  /** the two-byte form sent by a vehicle in OBD mode 03, as 4 hex digits (P0300 -> 0300, U0100 -> C100) */
  raw: string;
  /** UDS failure-type byte (2 hex digits), when given */
  failureType: string | null;
}

const SYSTEM_NAMES: Record<DtcSystem, string> = { P: 'Powertrain', B: 'Body', C: 'Chassis', U: 'Network' };
const SYSTEM_BITS: Record<DtcSystem, number> = { P: 0, C: 1, B: 2, U: 3 };

/** Subsystems of P0xxx / P2xxx by the third character (SAE J2012). */
const POWERTRAIN_SUBSYSTEMS: Record<string, string> = {
  '0': 'Fuel and air metering, auxiliary emission controls',
  '1': 'Fuel and air metering',
  '2': 'Fuel and air metering (injector circuit)',
  '3': 'Ignition system or misfire',
  '4': 'Auxiliary emission controls',
  '5': 'Vehicle speed, idle control and auxiliary inputs',
  '6': 'Computer and output circuits',
  '7': 'Transmission',
  '8': 'Transmission',
  '9': 'Transmission',
  A: 'Hybrid propulsion',
  B: 'Hybrid propulsion',
  C: 'Hybrid propulsion',
  D: 'Reserved by SAE',
  E: 'Reserved by SAE',
  F: 'Reserved by SAE',
};

const FORMAT = /^([PBCU])([0-3])([0-9A-F])([0-9A-F]{2})(?:-?([0-9A-F]{2}))?$/;

export function normalizeCode(input: string): string {
  return input.trim().toUpperCase().replace(/\s+/g, '');
}

/** Structure of one code; a malformed code is BAD_USER_INPUT naming it. */
export function parseDtc(input: string, allowFailureType: boolean): DtcStructure {
  const normalized = normalizeCode(input);
  const m = FORMAT.exec(normalized);
  if (!m || (m[5] && !allowFailureType)) {
    throw badInput(
      `"${input}" is not a valid diagnostic trouble code: expected a letter P, B, C or U, a digit 0-3 and three hex digits, e.g. P0300${allowFailureType ? ' (UDS: optionally followed by a failure-type byte, e.g. P0300-1F)' : ''}.`,
      { argument: 'codes', value: input },
    );
  }
  const system = m[1] as DtcSystem;
  const second = Number(m[2]);
  const third = m[3]!;
  const code = `${system}${second}${third}${m[4]}`;
  let generic: boolean;
  if (system === 'P') generic = second === 0 || second === 2 || (second === 3 && parseInt(third, 16) >= 4);
  else generic = second === 0 || second === 3;
  const firstNibble = (SYSTEM_BITS[system] << 2) | second;
  return {
    code,
    system,
    systemName: SYSTEM_NAMES[system],
    generic,
    subsystem:
      system === 'P' && (second === 0 || second === 2) ? (POWERTRAIN_SUBSYSTEMS[third] ?? null) : null,
    raw: `${firstNibble.toString(16).toUpperCase()}${code.slice(2)}`,
    failureType: m[5] ?? null,
  };
}

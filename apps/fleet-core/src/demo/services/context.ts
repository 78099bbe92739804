/**
 * What every services area writer of one organization shares: the organization's core rows (read
 * back from the transaction), its PRNG (ONE per organization: the writers run in a fixed order, so
 * the demo stays byte-identical), the rows collected per table, and what earlier areas decided
 * (managers, workshops, distributors).
 */
import type { Knex } from 'knex';
import type { Rng } from '../ids';
import { uuidV5 } from '../ids';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
export type Row = Record<string, unknown>;

export interface AccountRow {
  id: string;
  organization_id: string;
  email: string;
  full_name: string;
  phone: string | null;
  language: string;
}
export interface GroupRow {
  id: string;
  organization_id: string;
  label: string;
  hierarchy_level: string;
}
export interface DeviceRow {
  id: string;
  organization_id: string;
  current_vehicle_id: string | null;
  onboarded: boolean;
  created_at: Date;
}
export interface VehicleRow {
  id: string;
  organization_id: string;
  vin: string | null;
  plate: string | null;
  make: string | null;
  model: string | null;
  model_year: number | null;
}

export interface OrgContext {
  trx: Knex | Knex.Transaction;
  now: number;
  org: { id: string; name: string };
  rng: Rng;
  french: boolean;
  orgAccounts: AccountRow[];
  orgGroups: GroupRow[];
  orgDevices: DeviceRow[];
  orgVehicles: VehicleRow[];
  orgDrivers: Array<{ id: string; organization_id: string }>;
  vehicleById: Map<string, VehicleRow>;
  push(table: string, row: Row): void;
  /** `now` minus a number of days */
  at(daysAgo: number): Date;
  /** A free-text description of an account, group, device, vehicle or driver. */
  description(subject: string, subjectId: string, label: string, value: string, source?: string): void;
  /** Accounts with the ADMIN or FLEET_MANAGER role (set by writeRoles). */
  managers: string[];
  /** The organization's workshops (set by writeWorkshops). */
  orgWorkshops: string[];
  /** The organization's onboarding distributors (set by writeDistributors). */
  distributorIds: string[];
}

export type OrgContextInput = Omit<
  OrgContext,
  'at' | 'description' | 'managers' | 'orgWorkshops' | 'distributorIds'
>;

export function orgContext(input: OrgContextInput): OrgContext {
  const { now, rng, org, push } = input;
  const at = (daysAgo: number) => new Date(now - Math.round(daysAgo * DAY));
  const description = (subject: string, subjectId: string, label: string, value: string, source = 'MANUAL') =>
    push('fleet.descriptions', {
      id: uuidV5(`description:${subject}:${subjectId}:${label}`),
      organization_id: org.id,
      subject,
      subject_id: subjectId,
      label,
      value,
      source,
      created_at: at(rng.int(30, 400)),
      updated_at: at(rng.int(0, 30)),
    });
  return { ...input, at, description, managers: [], orgWorkshops: [], distributorIds: [] };
}

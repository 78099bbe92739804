/**
 * Row counts of what `npm run seed` and `npm run import` write: fleet-core's tables plus the SSO
 * users this tool creates for the fleet accounts (fleet-core never writes the SSO).
 */
import { COUNTED_TABLES as FLEET_TABLES, type TableCounts as FleetCounts } from '@fleetgraph/fleet-core';

export interface TableCounts extends FleetCounts {
  users: number;
}

/** The table behind each count, in insertion (foreign-key) order. */
export const COUNTED_TABLES: Record<keyof TableCounts, string> = (() => {
  const { organizations, accounts, ...rest } = FLEET_TABLES;
  return { organizations, accounts, users: 'sso.users', ...rest };
})();

export function formatCounts(counts: TableCounts): string {
  return (Object.keys(COUNTED_TABLES) as Array<keyof TableCounts>)
    .map((key) => `  ${COUNTED_TABLES[key].padEnd(32)} ${String(counts[key]).padStart(8)}`)
    .join('\n');
}

/**
 * The root list of reports (`inspectionReports`): which rows, and in which shape visibility
 * reads them.
 */
import type { Knex } from 'knex';
import { from, type RootPageOptions } from '@fleetgraph/paging';
import {
  visibleList,
  type ListScope,
  type OrganizationWalk,
  type VisibilityForm,
} from '@fleetgraph/visibility';
import * as t from './tables';
import { fleetVisible, whereFleetVisible } from './visibility';

export interface ReportFilters {
  vehicleId?: string | undefined;
  driverId?: string | undefined;
  groupId?: string | undefined;
  workflowStatus?: string | undefined;
  status?: string | undefined;
  inspectionType?: string | undefined;
}

/** The list walks its organization's reports newest first (inspection_reports_org_time_idx). */
const REPORT_WALK: OrganizationWalk = {
  organization: 'r.organization_id',
  order: t.reports.order,
  lowest: "'-infinity'::timestamptz",
};

/** The reports matching `filters`, before visibility and order. */
function reportRows(knex: Knex, filters: ReportFilters): Knex.QueryBuilder {
  const q = from(knex, t.reports);
  if (filters.vehicleId) q.where('r.vehicle_id', filters.vehicleId);
  if (filters.driverId) q.where('r.driver_id', filters.driverId);
  if (filters.groupId) q.where('r.group_id', filters.groupId);
  if (filters.workflowStatus) q.where('r.workflow_status', filters.workflowStatus);
  if (filters.status) q.where('r.status', filters.status);
  if (filters.inspectionType) q.where('r.inspection_type', filters.inspectionType);
  return q;
}

/**
 * The visible reports matching `filters`, as pageOf's base (and countBase), read in the cheapest
 * shape: by a vehicle, driver or group, that key's index bounds the rows and each is tested
 * (`row`); with no filter, the viewer's scope decides (a walk of the organization for a large
 * fleet seen from the top, the visible sets otherwise); with only status-like filters, the
 * visible sets, whose plan does not depend on how rare the status is. `scope` is asked only when
 * it decides.
 */
export async function reportList(
  knex: Knex,
  viewer: string,
  filters: ReportFilters,
  scope: () => Promise<ListScope>,
): Promise<Pick<RootPageOptions, 'base' | 'countBase'>> {
  if (Object.values(filters).some((v) => v !== undefined)) {
    const byKey = Boolean(filters.vehicleId || filters.driverId || filters.groupId);
    return { base: whereFleetVisible(knex, reportRows(knex, filters), 'r', viewer, byKey ? 'row' : 'set') };
  }
  const visible = (form: VisibilityForm) => fleetVisible(knex, 'r', viewer, form);
  return visibleList(() => reportRows(knex, filters), await scope(), REPORT_WALK, visible);
}

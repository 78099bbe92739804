/**
 * The root list of reports (`inspectionReports`): which rows, and in which shape visibility
 * reads them.
 */
import type { Knex } from 'knex';
import type { Viewer } from '@fleetgraph/auth';
import { from, type RootPageOptions } from '@fleetgraph/paging';
import {
  visibleRootList,
  type ListScope,
  type OrganizationWalk,
  type VisibilityForm,
} from '@fleetgraph/visibility';
import * as t from './tables';
import { fleetVisible } from './visibility';

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
 * The visible reports matching `filters`, as pageOf's base (and countBase): by a vehicle, driver
 * or group, that key's index bounds the rows; status-like filters read the visible sets; no
 * filter lets the viewer's scope decide (visibleRootList).
 */
export function reportList(
  knex: Knex,
  viewer: Viewer,
  filters: ReportFilters,
  scope: () => Promise<ListScope>,
): Promise<Pick<RootPageOptions, 'base' | 'countBase'>> {
  const byKey = Boolean(filters.vehicleId || filters.driverId || filters.groupId);
  const bound = byKey ? 'key' : Object.values(filters).some((v) => v !== undefined) ? 'set' : 'scope';
  const visible = (form: VisibilityForm) => fleetVisible(knex, 'r', viewer, form);
  return visibleRootList(() => reportRows(knex, filters), bound, visible, REPORT_WALK, scope);
}

/** Anomalies: the root list (bounded by the filters' indexes or the viewer's scope) and the type. */
import { pageOf, type PageArgs, type TableSpec } from '@fleetgraph/paging';
import { listProjection, visibleId } from '@fleetgraph/subgraph-kit';
import { visibleRootList, type OrganizationWalk, type VisibilityForm } from '@fleetgraph/visibility';
import { applyAnomalyFilters, presentFilters, sortOrder, type AnomalyFilters } from '../data/anomaly-filters';
import { anomalySpec, type AnomalyRow } from '../data/tables';
import { visibleIn } from '../data/visibility';
import type { MobilityReader } from '../reader';
import { fleetReferences, transaction, userAccount, type Args, type Ctx, type Info } from './common';

export async function anomaliesQuery(reader: MobilityReader, args: Args, info: Info) {
  const { pageSize, pageId, sort, ...filters } = args;
  const order = sortOrder(sort);
  const spec = anomalySpec(order);
  const present = presentFilters(filters);
  return pageOf<AnomalyRow>({
    codec: reader.codec,
    name: 'mobilityTransactionAnomalies',
    spec,
    args: { pageSize, pageId } as PageArgs,
    filters: { ...present, sort: order.fields },
    ...(await anomalyRows(reader, spec, filters as AnomalyFilters, Object.keys(present))),
    fields: listProjection(spec, info),
  });
}

/** The order the organization index (organization_id, detected_at, id) walks, either way. */
const WALKED_ORDER = 'a.detected_at,a.id';

/** Filters naming the anomalies' assets or transaction: each has an index that bounds the rows. */
const KEY_FILTERS = new Set(['deviceId', 'vehicleId', 'driverId', 'groupId', 'mobilityTransactionId']);

/** The list walks its organization in detection order (anomalies_org_detected_idx). */
const walkOf = (spec: TableSpec): OrganizationWalk => ({
  organization: 'a.organization_id',
  order: spec.order,
  lowest: "'-infinity'::timestamptz",
});

/**
 * The visible anomalies matching `filters`, as pageOf's base (and countBase): by an asset or
 * transaction, that key's index bounds the rows; other filters, or a sort the organization index
 * does not serve, read the visible sets; neither lets the viewer's scope decide (visibleRootList).
 */
function anomalyRows(reader: MobilityReader, spec: TableSpec, filters: AnomalyFilters, given: string[]) {
  const { knex, viewer } = reader;
  const bound = given.some((f) => KEY_FILTERS.has(f))
    ? 'key'
    : given.length > 0 || spec.order.columns.join() !== WALKED_ORDER
      ? 'set'
      : 'scope';
  const rows = () => applyAnomalyFilters(knex(`${spec.table} as a`), filters);
  const visible = (form: VisibilityForm) => visibleIn(knex, 'a', viewer, form);
  return visibleRootList(rows, bound, visible, walkOf(spec), () => reader.listScope);
}

/** The fields of MobilityTransactionAnomaly. */
export const anomalyResolvers = {
  __resolveReference: (r: { id: string }, { reader }: Ctx) => reader.anomalies.load(String(r.id)),
  transaction: (a: AnomalyRow, _: Args, { reader }: Ctx, info: Info) =>
    transaction(reader, a.transactionId, info),
  evidence: (a: AnomalyRow) => (a.evidenceJson == null ? null : JSON.stringify(a.evidenceJson)),
  ...fleetReferences,
  detectedById: visibleId('detectedById', userAccount('detectedBy')),
  clearedById: visibleId('clearedById', userAccount('clearedBy')),
};

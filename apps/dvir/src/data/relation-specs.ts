/**
 * Nested paged fields as relations from a parent id to the viewer's visible children, batched by
 * relationLoader (one LATERAL statement per relation and page request, whatever the page size).
 *
 * A report's answers, defects and attachments are visible when the report is (the rule of
 * ./visibility.ts), so those relations test their parent once (`parentVisible`) rather than every
 * child.
 */
import type { Knex } from 'knex';
import { from, type RelationSpec } from '@fleetgraph/paging';
import * as t from './tables';
import { visibleTemplateIds, whereFleetRowVisible } from './visibility';

type Filters = Record<string, unknown>;

/**
 * The relation's parent row (`table`, by p.parent_id) is visible: a condition on the parent only,
 * so PostgreSQL evaluates it once per parent (a one-time filter of the LATERAL subquery; `offset
 * 0` keeps the EXISTS from being joined to the children, where it would run per child again).
 */
const parentVisible = (knex: Knex, viewer: string, table: string) => (query: Knex.QueryBuilder) =>
  query.whereRaw('exists (? offset 0)', [
    whereFleetRowVisible(knex, knex(`${table} as pv`).select(knex.raw('1')), 'pv', viewer).whereRaw(
      'pv.id = p.parent_id',
    ),
  ]);

const attachmentsOf = (name: string, type: string, parent: string): RelationSpec => ({
  name,
  parentType: 'uuid',
  child: t.attachments,
  children: (knex, viewer) =>
    from(knex, t.attachments)
      .whereRaw('at.attachable_id = p.parent_id')
      .where('at.attachable_type', type)
      .where(parentVisible(knex, viewer, parent)),
});

const reportFilter = (query: Knex.QueryBuilder, f: Filters) => {
  if (f.workflowStatus != null) query.where('r.workflow_status', f.workflowStatus as string);
  if (f.status != null) query.where('r.status', f.status as string);
  if (f.inspectionType != null) query.where('r.inspection_type', f.inspectionType as string);
  if (f.startedAfter != null) query.where('r.started_at', '>=', f.startedAfter as Date);
  if (f.startedBefore != null) query.where('r.started_at', '<', f.startedBefore as Date);
};

export const OPEN_STATUSES = ['OPEN', 'IN_REPAIR'];

export const relations = {
  templateItems: {
    name: 'InspectionTemplate.inspectionItems',
    parentType: 'text',
    child: t.items,
    children: (knex, viewer) =>
      from(knex, t.items)
        .whereRaw(
          "it.template_id = split_part(p.parent_id, ':', 1)::uuid and it.template_version = split_part(p.parent_id, ':', 2)::int",
        )
        .whereIn('it.template_id', visibleTemplateIds(knex, viewer)),
  },
  reportAnswers: {
    name: 'InspectionReport.inspectionAnswers',
    parentType: 'uuid',
    child: t.answers,
    children: (knex, viewer) =>
      from(knex, t.answers)
        .whereRaw('a.report_id = p.parent_id')
        .where(parentVisible(knex, viewer, t.reports.table)),
  },
  reportDefects: {
    name: 'InspectionReport.defects',
    parentType: 'uuid',
    child: t.defects,
    children: (knex, viewer) =>
      from(knex, t.defects)
        .whereRaw('df.reported_in_report_id = p.parent_id')
        .where(parentVisible(knex, viewer, t.reports.table)),
  },
  reportAttachments: attachmentsOf('InspectionReport.attachments', 'InspectionReport', t.reports.table),
  answerAttachments: attachmentsOf('InspectionAnswer.attachments', 'InspectionAnswer', t.answers.table),
  defectAttachments: attachmentsOf('Defect.attachments', 'Defect', t.defects.table),
  vehicleReports: {
    name: 'Vehicle.inspectionReports',
    parentType: 'uuid',
    child: t.reports,
    children: (knex, viewer) =>
      whereFleetRowVisible(knex, from(knex, t.reports).whereRaw('r.vehicle_id = p.parent_id'), 'r', viewer),
    filter: reportFilter,
  },
  vehicleDefects: {
    name: 'Vehicle.defects',
    parentType: 'uuid',
    child: t.defects,
    children: (knex, viewer) =>
      whereFleetRowVisible(knex, from(knex, t.defects).whereRaw('df.vehicle_id = p.parent_id'), 'df', viewer),
    filter: (query, f) => {
      if (f.status != null) query.where('df.status', f.status as string);
    },
  },
  vehicleOpenDefects: {
    name: 'Vehicle.openDefects',
    parentType: 'uuid',
    child: t.defects,
    children: (knex, viewer) =>
      whereFleetRowVisible(
        knex,
        from(knex, t.defects).whereRaw('df.vehicle_id = p.parent_id').whereIn('df.status', OPEN_STATUSES),
        'df',
        viewer,
      ),
  },
} satisfies Record<string, RelationSpec>;

export type RelationName = keyof typeof relations;

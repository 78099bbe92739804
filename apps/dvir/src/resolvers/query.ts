/** Root queries: lookups by id (null unless visible) and paged lists (pageOf, keyset). */
import type { GraphQLResolveInfo } from 'graphql';
import { badInput, from, pageOf, type TableSpec } from '@fleetgraph/paging';
import * as t from '../data/tables';
import { whereFleetVisible, whereTemplateVisible } from '../data/visibility';
import { reportList } from '../data/report-list';
import { listProjection } from '@fleetgraph/subgraph-kit';
import { idArg, localizedPage, type Ctx, type Row } from './common';

type Args = Record<string, any>;
const paging = (args: Args) => ({ pageSize: args.pageSize, pageId: args.pageId });
const withLocale = (row: Row | null, locale: unknown) => (row && locale ? { ...row, __locale: locale } : row);

const SORTS: Record<string, { column: string; field: string; direction: 'asc' | 'desc' }> = {
  NAME_ASC: { column: 'tp.name', field: 'baseName', direction: 'asc' },
  NAME_DESC: { column: 'tp.name', field: 'baseName', direction: 'desc' },
  CREATED_AT_ASC: { column: 'tp.created_at', field: 'createdAt', direction: 'asc' },
  CREATED_AT_DESC: { column: 'tp.created_at', field: 'createdAt', direction: 'desc' },
  VERSION_ASC: { column: 'tp.version', field: 'version', direction: 'asc' },
  VERSION_DESC: { column: 'tp.version', field: 'version', direction: 'desc' },
};

/** The templates' keyset order for a `sort` argument (keys of one direction, then id, version). */
function templateSpec(sort: string[] | null | undefined): TableSpec {
  const keys = (sort && sort.length > 0 ? sort : ['NAME_ASC']).map((s) => SORTS[s]!);
  const directions = new Set(keys.map((k) => k.direction));
  if (directions.size > 1) {
    throw badInput('sort keys must all be ascending or all descending (e.g. [NAME_ASC, VERSION_ASC]).', {
      argument: 'sort',
    });
  }
  const columns = [...new Set(keys.map((k) => k.column))];
  const fields = columns.map((c) => keys.find((k) => k.column === c)!.field);
  for (const [column, field] of [
    ['tp.id', 'id'],
    ['tp.version', 'version'],
  ] as const) {
    if (!columns.includes(column)) {
      columns.push(column);
      fields.push(field);
    }
  }
  return { ...t.templates, order: { columns, fields, direction: keys[0]!.direction } };
}

export const Query = {
  defect: (_: unknown, { id }: Args, { reader }: Ctx) => reader.defect.load(String(id)),
  defects: (_: unknown, args: Args, { reader }: Ctx, info: GraphQLResolveInfo) => {
    const filters = {
      vehicleId: idArg('vehicleId', args.vehicleId),
      status: args.status ?? undefined,
      inspectionItemId: idArg('inspectionItemId', args.inspectionItemId),
    };
    const base = whereFleetVisible(reader.knex, from(reader.knex, t.defects), 'df', reader.viewer);
    if (filters.vehicleId) base.where('df.vehicle_id', filters.vehicleId);
    if (filters.status) base.where('df.status', filters.status);
    if (filters.inspectionItemId) base.where('df.inspection_item_id', filters.inspectionItemId);
    return pageOf<Row>({
      codec: reader.codec,
      name: 'defects',
      spec: t.defects,
      fields: listProjection(t.defects, info),
      args: paging(args),
      filters,
      base,
    });
  },
  dvirAttachment: (_: unknown, { id }: Args, { reader }: Ctx) => reader.attachment.load(String(id)),
  inspectionAnswer: async (_: unknown, { id, locale }: Args, { reader }: Ctx) =>
    withLocale(await reader.answer.load(String(id)), locale),
  inspectionAnswers: async (_: unknown, args: Args, { reader }: Ctx, info: GraphQLResolveInfo) => {
    const filters = { inspectionReportId: idArg('inspectionReportId', args.inspectionReportId) };
    const base = whereFleetVisible(reader.knex, from(reader.knex, t.answers), 'a', reader.viewer);
    if (filters.inspectionReportId) base.where('a.report_id', filters.inspectionReportId);
    const page = await pageOf<Row>({
      codec: reader.codec,
      name: 'inspectionAnswers',
      spec: t.answers,
      fields: listProjection(t.answers, info),
      args: paging(args),
      filters,
      base,
    });
    return localizedPage(page, args.locale);
  },
  inspectionItem: async (_: unknown, { id, locale }: Args, { reader }: Ctx) =>
    withLocale(await reader.item.load(String(id)), locale),
  inspectionReport: (_: unknown, { id }: Args, { reader }: Ctx) => reader.report.load(String(id)),
  inspectionReports: async (_: unknown, args: Args, { reader }: Ctx, info: GraphQLResolveInfo) => {
    const filters = {
      vehicleId: idArg('vehicleId', args.vehicleId),
      driverId: idArg('driverId', args.driverId),
      groupId: idArg('groupId', args.groupId),
      workflowStatus: args.workflowStatus ?? undefined,
      status: args.status ?? undefined,
      inspectionType: args.inspectionType ?? undefined,
    };
    return pageOf<Row>({
      codec: reader.codec,
      name: 'inspectionReports',
      spec: t.reports,
      fields: listProjection(t.reports, info),
      args: paging(args),
      filters,
      ...(await reportList(reader.knex, reader.viewer, filters, () => reader.listScope)),
    });
  },
  inspectionTemplate: async (_: unknown, { id, locale }: Args, { reader }: Ctx) =>
    withLocale(await reader.template.load(String(id)), locale),
  inspectionTemplates: async (_: unknown, args: Args, { reader }: Ctx) => {
    if (args.version != null && (!Number.isInteger(args.version) || args.version < 1)) {
      throw badInput('version must be a positive integer.', { argument: 'version' });
    }
    const filters = {
      groupId: idArg('groupId', args.groupId),
      active: args.active ?? undefined,
      version: args.version ?? undefined,
      vehicleType: args.vehicleType ?? undefined,
      sort: args.sort ?? undefined,
    };
    const spec = templateSpec(args.sort);
    const base = whereTemplateVisible(reader.knex, from(reader.knex, t.templates), 'tp', reader.viewer);
    if (filters.groupId) base.where('tp.group_id', filters.groupId);
    if (filters.active != null) base.where('tp.active', filters.active);
    if (filters.version != null) base.where('tp.version', filters.version);
    else base.where('tp.latest', true);
    if (filters.vehicleType) base.where('tp.vehicle_type', filters.vehicleType);
    const page = await pageOf<Row>({
      codec: reader.codec,
      name: 'inspectionTemplates',
      spec,
      args: paging(args),
      filters,
      base,
    });
    return localizedPage(page, args.locale);
  },
};

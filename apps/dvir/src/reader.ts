/**
 * The per-request reader of the dvir subgraph: one SQL statement per entity type per request level
 * (DataLoader batches the ids a level asks for), every lookup filtered by the viewer's
 * visibility, and the nested pages (relationLoaders, made on first use).
 */
import DataLoader from 'dataloader';
import type { Knex } from 'knex';
import type { UserContext, Viewer } from '@fleetgraph/auth';
import { lazyFields } from '@fleetgraph/subgraph-kit';
import {
  from,
  keyLookup,
  relationLoaders,
  rowsPerParent,
  selectColumns,
  uuidsOnly,
  type CursorCodec,
} from '@fleetgraph/paging';
import { fleetVisibility, type ListScopeCache } from '@fleetgraph/visibility';
import { relations, OPEN_STATUSES, type RelationName } from './data/relation-specs';
import * as t from './data/tables';
import { visibleTemplateIds, whereFleetRowVisible, whereTemplateVisible } from './data/visibility';
import type { FileService } from './data/files/service';

export interface DvirResources {
  knex: Knex;
  codec: CursorCodec;
  files: FileService;
  /** How root lists read visibility, per account (kept a minute per process). */
  listScopes: ListScopeCache;
}

type ViewerParams = { viewer: Viewer };

/** A fleet entity (report, answer, defect, attachment) by id, when the viewer sees its vehicle or group. */
const fleetEntity = (spec: t.TableSpecLike) =>
  keyLookup<ViewerParams>({ column: `${spec.alias}.id`, field: 'id', kind: 'uuid' }, ['viewer'], (knex, p) =>
    whereFleetRowVisible(knex, from(knex, spec).select(selectColumns(spec)), spec.alias, p.viewer),
  );

/** The lookups' statements, compiled once per process (keyLookup). */
const lookups = {
  report: fleetEntity(t.reports),
  answer: fleetEntity(t.answers),
  defect: fleetEntity(t.defects),
  attachment: fleetEntity(t.attachments),
  item: keyLookup<ViewerParams>({ column: 'it.id', field: 'id', kind: 'uuid' }, ['viewer'], (knex, p) =>
    from(knex, t.items)
      .select(selectColumns(t.items))
      .select(knex.raw('tp.default_language as "defaultLanguage"'))
      .join('dvir.inspection_templates as tp', (j) =>
        j.on('tp.id', 'it.template_id').andOn('tp.version', 'it.template_version'),
      )
      .whereIn('it.template_id', visibleTemplateIds(knex, p.viewer)),
  ),
  template: keyLookup<ViewerParams>({ column: 'tp.id', field: 'id', kind: 'uuid' }, ['viewer'], (knex, p) =>
    whereTemplateVisible(
      knex,
      from(knex, t.templates).select(selectColumns(t.templates)).where('tp.latest', true),
      'tp',
      p.viewer,
    ),
  ),
};

type ReaderArgs = DvirResources & { viewer: Viewer };

/**
 * The request's reader, its loaders each made on first use (lazyFields): a request allocates one object, and
 * a loader only when one of its fields is resolved.
 */
const dvirReader = lazyFields<ReaderArgs>()({
  /** How the root list of reports reads visibility for this viewer (ListScopeCache). */
  listScope: ({ knex, viewer, listScopes }: ReaderArgs) => listScopes.scopeOf(knex, viewer),
  relations: ({ knex, codec, viewer }: ReaderArgs) =>
    relationLoaders<RelationName, t.Row>(knex, codec, viewer, relations),
  report: lookups.report.maker<t.Row>(),
  answer: lookups.answer.maker<t.Row>(),
  defect: lookups.defect.maker<t.Row>(),
  attachment: lookups.attachment.maker<t.Row>(),
  /** An item by id when its template is visible. */
  item: lookups.item.maker<t.Row>(),
  /** The latest version of a template by id, when visible. */
  template: lookups.template.maker<t.Row>(),
  /** One template version by "id:version", when visible. */
  templateVersion: ({ knex, viewer }: ReaderArgs) =>
    new DataLoader<string, t.Row | null>(async (keys) => {
      const pairs = keys
        .map((k) => k.split(':'))
        .filter(([id, v]) => uuidsOnly([id!]).length && /^\d+$/.test(v!));
      if (pairs.length === 0) return keys.map(() => null);
      const rows: t.Row[] = await whereTemplateVisible(
        knex,
        from(knex, t.templates)
          .select(selectColumns(t.templates))
          .whereIn(['tp.id', 'tp.version'], pairs.map(([id, v]) => [id!.toLowerCase(), Number(v)]) as any),
        'tp',
        viewer,
      );
      const byId = new Map(rows.map((r) => [`${r.id}:${r.version}`, r]));
      return keys.map((k) => byId.get(k.toLowerCase()) ?? null);
    }),
  /** Whether the viewer sees fleet-core's vehicles, drivers, groups and accounts (ids and references). */
  fleet: ({ knex, viewer }: ReaderArgs) => fleetVisibility(knex, viewer),
  /** Whether a vehicle has no open defect from an OUT_OF_SERVICE report. */
  safeToDrive: ({ knex, viewer }: ReaderArgs) =>
    new DataLoader<string, boolean>(async (keys) => {
      const rows: Array<{ vehicle_id: string }> = await whereFleetRowVisible(
        knex,
        knex('dvir.defects as df')
          .distinct('df.vehicle_id')
          .whereIn('df.vehicle_id', uuidsOnly(keys))
          .whereIn('df.status', OPEN_STATUSES)
          .where('df.out_of_service', true),
        'df',
        viewer,
      );
      const unsafe = new Set(rows.map((r) => String(r.vehicle_id)));
      return keys.map((k) => !unsafe.has(k.toLowerCase()));
    }),
  /** The latest submitted report of each vehicle. */
  lastReport: ({ knex, viewer }: ReaderArgs) =>
    new DataLoader<string, t.Row | null>(async (keys) => {
      const inner = whereFleetRowVisible(
        knex,
        from(knex, t.reports)
          .select(selectColumns(t.reports))
          .whereRaw('r.vehicle_id = p.parent_id')
          .whereNot('r.workflow_status', 'IN_PROGRESS')
          .orderBy('r.started_at', 'desc')
          .orderBy('r.id', 'desc')
          .limit(1),
        'r',
        viewer,
      );
      const rows: t.Row[] = (await knex.raw(rowsPerParent('uuid'), [uuidsOnly(keys), inner])).rows;
      // Rows are used as they come (`__parent` is never resolved): no copy per row.
      const byVehicle = new Map<string, t.Row>();
      for (const row of rows) byVehicle.set(String(row.__parent), row);
      return keys.map((k) => byVehicle.get(k.toLowerCase()) ?? null);
    }),
});

export function createReader(resources: DvirResources, user: UserContext) {
  return dvirReader({ ...resources, viewer: user.uid });
}

export type DvirReader = ReturnType<typeof createReader>;

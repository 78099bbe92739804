/**
 * `npm run import -- dvir reports <file.json>`: a DVIR dataset
 *
 *   { "templates": [{ id, version, name, groupId? | organizationId?, defaultLanguage?, translations?,
 *                     vehicleType?, signatureRequired?, createdAt?,
 *                     items: [{ id?, orderPosition, category, name, ... }] }],
 *     "reports":   [{ id?, vehicle (id, VIN or plate) | vehicleId, driverId?, templateId, templateVersion, inspectionType,
 *                     workflowStatus, startedAt, completedAt?, driverSignatureDate?, odometer?,
 *                     fuelLevel?, location?: { lat, lng, address }, attachments?: [file],
 *                     answers: [{ id?, itemId, result, comment?, photos?: [file] }] }],
 *     "resolutions": [{ answerId | defectId, by: USER | MECHANIC, userId?, mechanicName?, at,
 *                       status?: RESOLVED | NOT_NEEDING_REPAIR }] }
 *   file = { kind, filename, base64 } | { kind, filename, path (relative to the JSON file) }
 *
 * A template belongs to the organization of its group (groupId), or to the one it names
 * (organizationId: visible to that whole organization). A template of no organization is visible
 * to every organization: it is only imported when asked on purpose, with `"organizationId": null`
 * in the file or `--global` on the command line; a template naming neither is refused.
 * Files are read as import/files.ts says: inside the dataset's folder only, at most
 * DVIR_MAX_ATTACHMENT_BYTES each.
 *
 * checked with the domain rules (src/domain/rules.ts) and against fleet-core's contract (the
 * vehicle, driver and user exist, in one organization). Every problem is listed by JSON path;
 * nothing is written unless there is none, and then everything is written in one transaction.
 * A later submitted report answering OK an item with an open defect of the same vehicle resolves it.
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Knex } from 'knex';
import { z } from 'zod';
import type { ImportOutcome } from '@fleetgraph/subgraph-kit';
import { loadDvirConfig, type DvirConfig } from '../config';
import { fileServiceFor } from '../data/files/index';
import { resolveVehicleReferences, type VehicleReference } from '@fleetgraph/visibility';
import { readDatasetFile } from './files';
import {
  buildReport,
  checkTemplate,
  defectsFixedBy,
  resolveDefect,
  type FileInput,
  type ReportRows,
  type Resolution,
  type Row,
  type TemplateInput,
} from '../domain/rules';
import { writeReports, writeTemplates, type FileStore } from '../domain/write';

const uuid = z.string().uuid();
const date = z
  .string()
  .refine((s) => !Number.isNaN(Date.parse(s)), 'must be an ISO 8601 date-time')
  .transform((s) => new Date(s));
const file = z
  .object({
    id: uuid.optional(),
    kind: z.string(),
    filename: z.string().min(1),
    base64: z.string().optional(),
    path: z.string().optional(),
  })
  .refine((f) => f.base64 !== undefined || f.path !== undefined, 'needs base64 or path');
const translations = z.record(
  z.string(),
  z.object({ name: z.string().optional(), description: z.string().optional() }),
);
const Dataset = z.object({
  templates: z
    .array(
      z.object({
        id: uuid,
        version: z.number().int(),
        name: z.string(),
        description: z.string().nullish(),
        groupId: uuid.nullish(),
        /** Absent: named by the group, else refused; null: every organization's (stated on purpose). */
        organizationId: uuid.nullish(),
        active: z.boolean().optional(),
        vehicleType: z.string().optional(),
        signatureRequired: z.boolean().optional(),
        defaultLanguage: z.string().optional(),
        translations: translations.optional(),
        createdAt: date.optional(),
        items: z.array(
          z.object({
            id: uuid.optional(),
            orderPosition: z.number().int(),
            category: z.string(),
            name: z.string(),
            description: z.string().nullish(),
            required: z.boolean().optional(),
            commentRequirement: z.boolean().optional(),
            commentOnSuccess: z.boolean().optional(),
            photoCountMin: z.number().int().optional(),
            photoCountMax: z.number().int().optional(),
            translations: translations.optional(),
          }),
        ),
      }),
    )
    .default([]),
  reports: z
    .array(
      z
        .object({
          id: uuid.optional(),
          /** The vehicle by id, VIN or plate (the way every importer names a vehicle). */
          vehicle: z.string().min(1).optional(),
          /** The vehicle by id only (the older name of `vehicle`). */
          vehicleId: uuid.optional(),
          driverId: uuid.nullish(),
          templateId: uuid,
          templateVersion: z.number().int(),
          inspectionType: z.string(),
          workflowStatus: z.string(),
          startedAt: date,
          completedAt: date.nullish(),
          driverSignatureDate: date.nullish(),
          odometer: z.number().int().nullish(),
          fuelLevel: z.number().int().nullish(),
          location: z.object({ lat: z.number(), lng: z.number(), address: z.string().nullish() }).nullish(),
          attachments: z.array(file).default([]),
          answers: z.array(
            z.object({
              id: uuid.optional(),
              itemId: uuid,
              result: z.string(),
              comment: z.string().nullish(),
              photos: z.array(file).default([]),
            }),
          ),
        })
        .refine((r) => (r.vehicle === undefined) !== (r.vehicleId === undefined), {
          message: 'name the vehicle once: `vehicle` (id, VIN or plate) or `vehicleId`',
          path: ['vehicle'],
        }),
    )
    .default([]),
  resolutions: z
    .array(
      z.object({
        answerId: uuid.optional(),
        defectId: uuid.optional(),
        by: z.enum(['USER', 'MECHANIC']),
        userId: uuid.optional(),
        mechanicName: z.string().optional(),
        at: date,
        status: z.enum(['RESOLVED', 'NOT_NEEDING_REPAIR']).optional(),
      }),
    )
    .default([]),
});

const pathOf = (path: PropertyKey[]) =>
  '$' + path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');

/** What an import of a dataset file reads from dvir's configuration. */
export type ImportConfig = Parameters<typeof fileServiceFor>[0] & Pick<DvirConfig, 'maxAttachmentBytes'>;

export async function importReportsFile(
  knex: Knex,
  filePath: string,
  context: { log(line: string): void; now: Date; options?: Record<string, string> },
  config: ImportConfig = loadDvirConfig(process.env),
): Promise<ImportOutcome> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(filePath, 'utf8'));
  } catch (error) {
    return { ok: false, problems: [`$: not readable JSON (${(error as Error).message})`] };
  }
  const importContext: ImportContext = {
    ...context,
    baseDir: dirname(resolve(filePath)),
    maxAttachmentBytes: config.maxAttachmentBytes,
    global: context.options?.global === 'true',
  };
  return importReports(knex, json, importContext, fileServiceFor(config));
}

type Data = z.infer<typeof Dataset>;
interface ImportContext {
  log(line: string): void;
  now: Date;
  /** The dataset's folder, where its file paths are read; none: inline (base64) files only. */
  baseDir?: string;
  maxAttachmentBytes: number;
  /** `--global`: templates naming no organization are every organization's. */
  global?: boolean;
}
/** Every problem of the file, by JSON path; nothing is written unless it stays empty. */
type Problems = string[];

interface FleetFacts {
  vehicleIds: string[];
  /** Each report's vehicle reference (`vehicle` or `vehicleId`), resolved. */
  references: Map<string, VehicleReference>;
  vehicles: Map<
    string,
    { id: string; organization_id: string; vehicle_type: string; group_id: string | null }
  >;
  /** Driver, account and group ids to their organization. */
  drivers: Map<string, string>;
  users: Map<string, string>;
  groups: Map<string, string>;
  /** The organizations templates name that exist (they have a group or an account). */
  organizations: Set<string>;
}

/** How a report names its vehicle (the schema lets exactly one of the two through). */
const vehicleReferenceOf = (r: { vehicle?: string | undefined; vehicleId?: string | undefined }) =>
  r.vehicle ?? r.vehicleId ?? '';

const distinct = (ids: string[]) => [...new Set(ids.map((id) => id.toLowerCase()))];

/** Organization of each id found in one of fleet-core's contract views. */
async function organizationsOf(knex: Knex, view: string, ids: string[]): Promise<Map<string, string>> {
  const rows = await knex(view).select('id', 'organization_id').whereIn('id', ids);
  return new Map(rows.map((row: any) => [String(row.id), String(row.organization_id)]));
}

/** Fleet facts through the contract: vehicles (organization, group), drivers, accounts, groups. */
async function fleetFactsOf(knex: Knex, data: Data): Promise<FleetFacts> {
  const references = await resolveVehicleReferences(knex, data.reports.map(vehicleReferenceOf));
  const vehicleIds = distinct(
    [...references.values()].flatMap((answer) => ('found' in answer ? [answer.found.id] : [])),
  );
  const vehicleRows = await knex('fleet_contract.vehicles_v1 as v')
    .select(
      'v.id',
      'v.organization_id',
      'v.vehicle_type',
      knex.raw(
        '(select gv.group_id from fleet_contract.group_vehicles_v1 gv where gv.vehicle_id = v.id order by gv.group_id limit 1) as group_id',
      ),
    )
    .whereIn('v.id', vehicleIds);
  return {
    vehicleIds,
    references,
    vehicles: new Map(vehicleRows.map((v: any) => [String(v.id), v])),
    drivers: await organizationsOf(
      knex,
      'fleet_contract.drivers_v1',
      distinct(data.reports.flatMap((r) => (r.driverId ? [r.driverId] : []))),
    ),
    users: await organizationsOf(
      knex,
      'fleet_contract.accounts_v1',
      distinct(data.resolutions.flatMap((r) => (r.userId ? [r.userId] : []))),
    ),
    groups: await organizationsOf(
      knex,
      'fleet_contract.groups_v1',
      distinct(data.templates.flatMap((t) => (t.groupId ? [t.groupId] : []))),
    ),
    organizations: await existingOrganizations(
      knex,
      distinct(data.templates.flatMap((t) => (t.organizationId ? [t.organizationId] : []))),
    ),
  };
}

/** Which of these organizations exist in fleet-core's contract (one of their groups or accounts). */
async function existingOrganizations(knex: Knex, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await knex
    .select('organization_id')
    .from('fleet_contract.groups_v1')
    .whereIn('organization_id', ids)
    .union((u) =>
      u.select('organization_id').from('fleet_contract.accounts_v1').whereIn('organization_id', ids),
    );
  return new Set(rows.map((row: { organization_id: string }) => String(row.organization_id)));
}

/**
 * The organization a template of the file belongs to: its group's, or the one it names; null
 * (every organization's) only when stated (`"organizationId": null`) or asked (`--global`).
 */
function templateOrganization(
  t: Data['templates'][number],
  facts: Pick<FleetFacts, 'groups' | 'organizations'>,
  global: boolean,
  path: string,
  problems: Problems,
): string | null {
  const named = t.organizationId?.toLowerCase();
  if (t.groupId) {
    const ofGroup = facts.groups.get(t.groupId.toLowerCase());
    if (!ofGroup) problems.push(`${path}.groupId: no group ${t.groupId}`);
    else if (named && named !== ofGroup)
      problems.push(`${path}.organizationId: group ${t.groupId} belongs to another organization`);
    return ofGroup ?? null;
  }
  if (named) {
    if (!facts.organizations.has(named)) problems.push(`${path}.organizationId: no organization ${named}`);
    return named;
  }
  if (t.organizationId === undefined && !global)
    problems.push(
      `${path}: names no organization, so every organization would see it: give groupId or organizationId, ` +
        'or state "organizationId": null (or import with --global) for a template of every organization',
    );
  return null;
}

/** The templates of the file, checked: each must be a new version and valid. */
async function fileTemplates(
  knex: Knex,
  data: Data,
  facts: FleetFacts,
  context: ImportContext,
  problems: Problems,
): Promise<TemplateInput[]> {
  const existingVersions = new Set(
    (
      await knex('dvir.inspection_templates')
        .select('id', 'version')
        .whereIn(
          'id',
          data.templates.map((t) => t.id.toLowerCase()),
        )
    ).map((t: any) => `${t.id}:${t.version}`),
  );
  const storedItems = await storedItemIds(knex, data);
  const seenItems = new Set<string>();
  const seen = new Set<string>();
  return data.templates.map((t, i) => {
    const path = `$.templates[${i}]`;
    const input: TemplateInput = {
      ...t,
      id: t.id.toLowerCase(),
      groupId: t.groupId?.toLowerCase() ?? null,
      organizationId: templateOrganization(t, facts, context.global === true, path, problems),
      createdAt: t.createdAt ?? context.now,
      items: t.items.map((item) => ({ ...item, id: item.id?.toLowerCase() ?? randomUUID() })),
    };
    problems.push(...checkTemplate(input, path));
    const key = `${input.id}:${input.version}`;
    if (existingVersions.has(key) || seen.has(key))
      problems.push(`${path}.version: template ${input.id} version ${input.version} already exists`);
    seen.add(key);
    t.items.forEach((item, j) => {
      const id = item.id?.toLowerCase();
      if (id && (storedItems.has(id) || seenItems.has(id)))
        problems.push(
          `${path}.items[${j}].id: an item ${id} already exists (item ids are unique across templates and versions)`,
        );
      if (id) seenItems.add(id);
    });
    return input;
  });
}

/** The item ids of the file that are already stored (an item belongs to one template version). */
async function storedItemIds(knex: Knex, data: Data): Promise<Set<string>> {
  const ids = data.templates.flatMap((t) =>
    t.items.flatMap((item) => (item.id ? [item.id.toLowerCase()] : [])),
  );
  if (ids.length === 0) return new Set();
  return new Set((await knex('dvir.inspection_items').whereIn('id', ids).pluck('id')).map(String));
}

/** Stored templates (`id:version` keys) with their items, as the domain rules take them. */
async function storedTemplates(knex: Knex, keys: string[]): Promise<TemplateInput[]> {
  if (keys.length === 0) return [];
  const stored = await knex('dvir.inspection_templates')
    .select('*')
    .whereIn(
      ['id', 'version'],
      keys.map((k) => {
        const [id, v] = k.split(':');
        return [id!, Number(v)];
      }) as any,
    );
  const items = await knex('dvir.inspection_items')
    .select('*')
    .whereIn(
      'template_id',
      stored.map((t: any) => t.id),
    );
  return stored.map((t: any) => ({
    id: t.id,
    version: t.version,
    organizationId: t.organization_id,
    groupId: t.group_id,
    name: t.name,
    signatureRequired: t.signature_required,
    defaultLanguage: t.default_language,
    vehicleType: t.vehicle_type,
    createdAt: t.created_at,
    items: items
      .filter((it: any) => it.template_id === t.id && it.template_version === t.version)
      .map((it: any) => ({
        id: it.id,
        orderPosition: it.order_position,
        category: it.category,
        name: it.name,
        description: it.description,
        required: it.required,
        commentRequirement: it.comment_requirement,
        commentOnSuccess: it.comment_on_success,
        photoCountMin: it.photo_count_min,
        photoCountMax: it.photo_count_max,
        translations: it.translations,
      })),
  }));
}

/** Every template a report may name (`id:version`): the file's, then those already stored. */
async function templatesByVersion(
  knex: Knex,
  data: Data,
  newTemplates: TemplateInput[],
): Promise<Map<string, TemplateInput>> {
  const templates = new Map(newTemplates.map((t) => [`${t.id}:${t.version}`, t]));
  const wanted = distinct(data.reports.map((r) => `${r.templateId}:${r.templateVersion}`)).filter(
    (k) => !templates.has(k),
  );
  for (const t of await storedTemplates(knex, wanted)) templates.set(`${t.id}:${t.version}`, t);
  return templates;
}

/** Reads a file of the dataset (import/files.ts: inline base64, or a path inside its folder). */
function fileLoader(context: ImportContext, problems: Problems) {
  const rules = { baseDir: context.baseDir, maxBytes: context.maxAttachmentBytes };
  return async (f: z.infer<typeof file>, path: string): Promise<FileInput | undefined> => {
    const outcome = await readDatasetFile(f, rules);
    if ('problem' in outcome) {
      problems.push(`${path}${outcome.problem}`);
      return undefined;
    }
    return {
      id: f.id?.toLowerCase() ?? randomUUID(),
      kind: f.kind,
      filename: f.filename,
      bytes: outcome.bytes,
    };
  };
}

type LoadFile = ReturnType<typeof fileLoader>;

/** The files of a list, loaded; those that could not be are left out (and listed as problems). */
async function loadFiles(files: z.infer<typeof file>[], path: string, load: LoadFile): Promise<FileInput[]> {
  const loaded: FileInput[] = [];
  for (const [k, f] of files.entries()) {
    const one = await load(f, `${path}[${k}]`);
    if (one) loaded.push(one);
  }
  return loaded;
}

/** The vehicle of a report, and its driver checked to be of the same organization. */
function reportVehicle(r: Data['reports'][number], facts: FleetFacts, path: string, problems: Problems) {
  const field = r.vehicle !== undefined ? 'vehicle' : 'vehicleId';
  const answer = facts.references.get(vehicleReferenceOf(r));
  const vehicle = answer && 'found' in answer ? facts.vehicles.get(answer.found.id) : undefined;
  if (!vehicle) {
    problems.push(`${path}.${field}: ${answer && 'problem' in answer ? answer.problem : 'no vehicle'}`);
    return undefined;
  }
  if (r.driverId) {
    const org = facts.drivers.get(r.driverId.toLowerCase());
    if (!org) problems.push(`${path}.driverId: no driver ${r.driverId}`);
    else if (org !== vehicle.organization_id)
      problems.push(
        `${path}.driverId: driver ${r.driverId} belongs to another organization than the vehicle`,
      );
  }
  return vehicle;
}

interface BuiltReports {
  built: ReportRows[];
  /** The defect each DEFECT answer of the file raised, by answer id. */
  answerToDefect: Map<string, Row>;
}

/** The rows of each report of the file, built and checked by the domain rules. */
async function buildFileReports(
  data: Data,
  facts: FleetFacts,
  templates: Map<string, TemplateInput>,
  load: LoadFile,
  problems: Problems,
): Promise<BuiltReports> {
  const built: ReportRows[] = [];
  const answerToDefect = new Map<string, Row>();
  for (const [i, r] of data.reports.entries()) {
    const path = `$.reports[${i}]`;
    const vehicle = reportVehicle(r, facts, path, problems);
    if (!vehicle) continue;
    const template = templates.get(`${r.templateId.toLowerCase()}:${r.templateVersion}`);
    if (template?.organizationId && template.organizationId !== vehicle.organization_id)
      problems.push(`${path}.templateId: template ${r.templateId} belongs to another organization`);
    const attachments = await loadFiles(r.attachments, `${path}.attachments`, load);
    const answers = [];
    for (const [j, a] of r.answers.entries()) {
      answers.push({
        id: a.id?.toLowerCase() ?? randomUUID(),
        itemId: a.itemId,
        result: a.result,
        comment: a.comment ?? null,
        photos: await loadFiles(a.photos, `${path}.answers[${j}].photos`, load),
      });
    }
    const out = buildReport(
      {
        id: r.id?.toLowerCase() ?? randomUUID(),
        organizationId: vehicle.organization_id,
        vehicleId: String(vehicle.id),
        groupId: vehicle.group_id,
        driverId: r.driverId?.toLowerCase() ?? null,
        templateId: r.templateId.toLowerCase(),
        templateVersion: r.templateVersion,
        vehicleType: vehicle.vehicle_type,
        workflowStatus: r.workflowStatus,
        inspectionType: r.inspectionType,
        odometer: r.odometer ?? null,
        fuelLevel: r.fuelLevel ?? null,
        driverSignatureDate: r.driverSignatureDate ?? null,
        locationLat: r.location?.lat ?? null,
        locationLng: r.location?.lng ?? null,
        locationAddress: r.location?.address ?? null,
        startedAt: r.startedAt,
        completedAt: r.completedAt ?? null,
        answers,
        attachments,
      },
      template,
      path,
      randomUUID,
    );
    problems.push(...out.problems);
    if (out.rows) {
      built.push(out.rows);
      for (const d of out.rows.defects) answerToDefect.set(String(d.inspection_answer_id), d);
    }
  }
  return { built, answerToDefect };
}

/**
 * Defects already stored that the file may change: those its resolutions name, and the open ones
 * of its vehicles (a later report may resolve them).
 */
async function storedDefects(knex: Knex, data: Data, vehicleIds: string[]): Promise<Row[]> {
  const defectIds = data.resolutions.flatMap((r) => (r.defectId ? [r.defectId.toLowerCase()] : []));
  return knex('dvir.defects as df')
    .select('df.*', 'a.item_name')
    .leftJoin('dvir.inspection_answers as a', 'a.id', 'df.inspection_answer_id')
    .where((w) =>
      w
        .whereIn('df.id', defectIds)
        .orWhere((o) => o.whereIn('df.vehicle_id', vehicleIds).whereIn('df.status', ['OPEN', 'IN_REPAIR'])),
    );
}

/** Why a resolution of the file cannot be applied to its defect, if it cannot. */
function resolutionProblem(
  res: Data['resolutions'][number],
  defect: Row,
  users: Map<string, string>,
  path: string,
): string | undefined {
  if (res.by === 'MECHANIC')
    return res.mechanicName?.trim() ? undefined : `${path}.mechanicName: required when by is MECHANIC`;
  if (!res.userId) return `${path}.userId: required when by is USER`;
  const org = users.get(res.userId.toLowerCase());
  if (!org) return `${path}.userId: no account ${res.userId}`;
  if (org !== defect.organization_id) return `${path}.userId: account of another organization`;
  return undefined;
}

/** The resolution a checked entry of the file stands for. */
function resolutionOf(res: Data['resolutions'][number]): Resolution {
  if (res.by === 'MECHANIC') return { by: 'MECHANIC', mechanicName: res.mechanicName!, at: res.at };
  const byUser = { by: 'USER' as const, userId: res.userId!.toLowerCase(), at: res.at };
  return res.status ? { ...byUser, status: res.status } : byUser;
}

/** The resolutions given in the file; answers the defects they changed. */
function applyFileResolutions(
  data: Data,
  reports: BuiltReports,
  existingDefects: Map<string, Row>,
  users: Map<string, string>,
  problems: Problems,
): Set<Row> {
  const changed = new Set<Row>();
  data.resolutions.forEach((res, i) => {
    const path = `$.resolutions[${i}]`;
    const defect = res.answerId
      ? reports.answerToDefect.get(res.answerId.toLowerCase())
      : res.defectId
        ? existingDefects.get(res.defectId.toLowerCase())
        : undefined;
    if (!defect) {
      problems.push(
        res.answerId || res.defectId
          ? `${path}: no defect for ${res.answerId ? `answer ${res.answerId}` : `defect ${res.defectId}`}`
          : `${path}: needs answerId (a DEFECT answer of this file) or defectId`,
      );
      return;
    }
    const problem = resolutionProblem(res, defect, users, path);
    if (problem) return void problems.push(problem);
    problems.push(...resolveDefect(defect, resolutionOf(res), path));
    changed.add(defect);
  });
  return changed;
}

/** Later reports resolve the open defects they find, in the order they were started. */
function resolveByLaterReports(stored: Row[], built: ReportRows[], changed: Set<Row>): void {
  const open: Row[] = [
    ...stored.filter((d) => ['OPEN', 'IN_REPAIR'].includes(String(d.status))),
    ...built.flatMap((b) => b.defects),
  ];
  const itemName = new Map<string, string>();
  for (const b of built) for (const a of b.answers) itemName.set(String(a.id), String(a.item_name));
  const byStart = [...built].sort(
    (a, b) => (a.report.started_at as Date).getTime() - (b.report.started_at as Date).getTime(),
  );
  for (const report of byStart) {
    const fixed = defectsFixedBy(
      report,
      open,
      (d) => (d.item_name as string | undefined) ?? itemName.get(String(d.inspection_answer_id)),
    );
    for (const d of fixed) {
      const at = (report.report.completed_at ?? report.report.started_at) as Date;
      resolveDefect(d, { by: 'LATER_REPORT', reportId: String(report.report.id), at }, 'auto');
      changed.add(d);
    }
  }
}

/** Everything of the file in one transaction; stored defects that changed are updated. */
async function writeImport(
  knex: Knex,
  files: FileStore,
  newTemplates: TemplateInput[],
  built: ReportRows[],
  changedStored: Row[],
): Promise<void> {
  await knex.transaction(async (trx) => {
    await writeTemplates(trx, newTemplates);
    await writeReports(trx, files, built);
    for (const d of changedStored) {
      await trx('dvir.defects')
        .where('id', String(d.id))
        .update({
          status: d.status,
          resolution: d.resolution ?? null,
          resolved_by_user_id: d.resolved_by_user_id ?? null,
          resolved_in_report_id: d.resolved_in_report_id ?? null,
          mechanic_name: d.mechanic_name ?? null,
          resolved_at: d.resolved_at,
          updated_at: d.updated_at,
        });
    }
  });
}

export async function importReports(
  knex: Knex,
  json: unknown,
  context: ImportContext,
  files: FileStore,
): Promise<ImportOutcome> {
  const parsed = Dataset.safeParse(json);
  if (!parsed.success) {
    return { ok: false, problems: parsed.error.issues.map((i) => `${pathOf(i.path)}: ${i.message}`) };
  }
  const data = parsed.data;
  const problems: Problems = [];
  const facts = await fleetFactsOf(knex, data);
  const newTemplates = await fileTemplates(knex, data, facts, context, problems);
  const templates = await templatesByVersion(knex, data, newTemplates);
  const reports = await buildFileReports(data, facts, templates, fileLoader(context, problems), problems);
  const stored = await storedDefects(knex, data, facts.vehicleIds);
  const existingDefects = new Map(stored.map((d) => [String(d.id), d]));
  const changed = applyFileResolutions(data, reports, existingDefects, facts.users, problems);
  if (problems.length > 0) return { ok: false, problems };

  resolveByLaterReports(stored, reports.built, changed);
  const changedStored = [...changed].filter((d) => existingDefects.has(String(d.id)));
  await writeImport(knex, files, newTemplates, reports.built, changedStored);
  const { built } = reports;
  const summary = {
    templates: newTemplates.length,
    reports: built.length,
    answers: built.reduce((n, b) => n + b.answers.length, 0),
    defects: built.reduce((n, b) => n + b.defects.length, 0),
    attachments: built.reduce((n, b) => n + b.files.length, 0),
    resolved: changed.size,
  };
  context.log(`dvir import: ${JSON.stringify(summary)}`);
  return { ok: true, summary };
}

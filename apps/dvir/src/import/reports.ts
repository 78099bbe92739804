/**
 * `npm run import -- dvir reports <file.json>`: a DVIR dataset
 *
 *   { "templates": [{ id, version, name, groupId?, defaultLanguage?, translations?, vehicleType?,
 *                     signatureRequired?, createdAt?, items: [{ id?, orderPosition, category, name, ... }] }],
 *     "reports":   [{ id?, vehicleId, driverId?, templateId, templateVersion, inspectionType,
 *                     workflowStatus, startedAt, completedAt?, driverSignatureDate?, odometer?,
 *                     fuelLevel?, location?: { lat, lng, address }, attachments?: [file],
 *                     answers: [{ id?, itemId, result, comment?, photos?: [file] }] }],
 *     "resolutions": [{ answerId | defectId, by: USER | MECHANIC, userId?, mechanicName?, at,
 *                       status?: RESOLVED | NOT_NEEDING_REPAIR }] }
 *   file = { kind, filename, base64 } | { kind, filename, path (relative to the JSON file) }
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
import { loadDvirConfig } from '../config';
import { fileServiceFor } from '../files/index';
import {
  buildReport,
  checkTemplate,
  defectsFixedBy,
  resolveDefect,
  type FileInput,
  type ReportRows,
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
      z.object({
        id: uuid.optional(),
        vehicleId: uuid,
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

export async function importReportsFile(
  knex: Knex,
  filePath: string,
  context: { log(line: string): void; now: Date },
  files: FileStore = fileServiceFor(loadDvirConfig(process.env)),
): Promise<ImportOutcome> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(filePath, 'utf8'));
  } catch (error) {
    return { ok: false, problems: [`$: not readable JSON (${(error as Error).message})`] };
  }
  return importReports(knex, json, { ...context, baseDir: dirname(resolve(filePath)) }, files);
}

export async function importReports(
  knex: Knex,
  json: unknown,
  context: { log(line: string): void; now: Date; baseDir?: string },
  files: FileStore,
): Promise<ImportOutcome> {
  const parsed = Dataset.safeParse(json);
  if (!parsed.success) {
    return { ok: false, problems: parsed.error.issues.map((i) => `${pathOf(i.path)}: ${i.message}`) };
  }
  const data = parsed.data;
  const problems: string[] = [];

  // Fleet facts through the contract: vehicles (organization, group), drivers, accounts.
  const vehicleIds = [...new Set(data.reports.map((r) => r.vehicleId.toLowerCase()))];
  const vehicles = new Map<
    string,
    { organization_id: string; vehicle_type: string; group_id: string | null }
  >(
    (
      await knex('fleet_contract.vehicles_v1 as v')
        .select(
          'v.id',
          'v.organization_id',
          'v.vehicle_type',
          knex.raw(
            '(select gv.group_id from fleet_contract.group_vehicles_v1 gv where gv.vehicle_id = v.id order by gv.group_id limit 1) as group_id',
          ),
        )
        .whereIn('v.id', vehicleIds)
    ).map((v: any) => [String(v.id), v]),
  );
  const driverIds = [...new Set(data.reports.flatMap((r) => (r.driverId ? [r.driverId.toLowerCase()] : [])))];
  const drivers = new Map<string, string>(
    (await knex('fleet_contract.drivers_v1').select('id', 'organization_id').whereIn('id', driverIds)).map(
      (d: any) => [String(d.id), String(d.organization_id)],
    ),
  );
  const userIds = [...new Set(data.resolutions.flatMap((r) => (r.userId ? [r.userId.toLowerCase()] : [])))];
  const users = new Map<string, string>(
    (await knex('fleet_contract.accounts_v1').select('id', 'organization_id').whereIn('id', userIds)).map(
      (a: any) => [String(a.id), String(a.organization_id)],
    ),
  );
  const groupIds = [...new Set(data.templates.flatMap((t) => (t.groupId ? [t.groupId.toLowerCase()] : [])))];
  const groups = new Map<string, string>(
    (await knex('fleet_contract.groups_v1').select('id', 'organization_id').whereIn('id', groupIds)).map(
      (g: any) => [String(g.id), String(g.organization_id)],
    ),
  );

  // Templates of the file, and those already stored that reports refer to.
  const templates = new Map<string, TemplateInput>();
  const newTemplates: TemplateInput[] = [];
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
  data.templates.forEach((t, i) => {
    const path = `$.templates[${i}]`;
    const organizationId = t.groupId ? groups.get(t.groupId.toLowerCase()) : undefined;
    if (t.groupId && !organizationId) problems.push(`${path}.groupId: no group ${t.groupId}`);
    const input: TemplateInput = {
      ...t,
      id: t.id.toLowerCase(),
      groupId: t.groupId?.toLowerCase() ?? null,
      organizationId: organizationId ?? null,
      createdAt: t.createdAt ?? context.now,
      items: t.items.map((item) => ({ ...item, id: item.id?.toLowerCase() ?? randomUUID() })),
    };
    problems.push(...checkTemplate(input, path));
    const key = `${input.id}:${input.version}`;
    if (existingVersions.has(key) || templates.has(key))
      problems.push(`${path}.version: template ${input.id} version ${input.version} already exists`);
    templates.set(key, input);
    newTemplates.push(input);
  });
  const wanted = [
    ...new Set(data.reports.map((r) => `${r.templateId.toLowerCase()}:${r.templateVersion}`)),
  ].filter((k) => !templates.has(k));
  if (wanted.length > 0) {
    const stored = await knex('dvir.inspection_templates')
      .select('*')
      .whereIn(
        ['id', 'version'],
        wanted.map((k) => {
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
    for (const t of stored) {
      templates.set(`${t.id}:${t.version}`, {
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
      });
    }
  }

  const loadFile = async (f: z.infer<typeof file>, path: string): Promise<FileInput | undefined> => {
    try {
      const bytes =
        f.base64 !== undefined
          ? Buffer.from(f.base64, 'base64')
          : await readFile(resolve(context.baseDir ?? '.', f.path!));
      if (bytes.byteLength === 0) {
        problems.push(`${path}: the file is empty`);
        return undefined;
      }
      return {
        id: f.id?.toLowerCase() ?? randomUUID(),
        kind: f.kind,
        filename: f.filename,
        bytes: new Uint8Array(bytes),
      };
    } catch (error) {
      problems.push(
        `${path}.path: cannot read ${f.path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      );
      return undefined;
    }
  };

  const built: ReportRows[] = [];
  const answerToDefect = new Map<string, Row>();
  for (const [i, r] of data.reports.entries()) {
    const path = `$.reports[${i}]`;
    const vehicle = vehicles.get(r.vehicleId.toLowerCase());
    if (!vehicle) {
      problems.push(`${path}.vehicleId: no vehicle ${r.vehicleId}`);
      continue;
    }
    if (r.driverId) {
      const org = drivers.get(r.driverId.toLowerCase());
      if (!org) problems.push(`${path}.driverId: no driver ${r.driverId}`);
      else if (org !== vehicle.organization_id)
        problems.push(
          `${path}.driverId: driver ${r.driverId} belongs to another organization than the vehicle`,
        );
    }
    const template = templates.get(`${r.templateId.toLowerCase()}:${r.templateVersion}`);
    if (template?.organizationId && template.organizationId !== vehicle.organization_id)
      problems.push(`${path}.templateId: template ${r.templateId} belongs to another organization`);
    const attachments: FileInput[] = [];
    for (const [j, f] of r.attachments.entries()) {
      const loaded = await loadFile(f, `${path}.attachments[${j}]`);
      if (loaded) attachments.push(loaded);
    }
    const answers = [];
    for (const [j, a] of r.answers.entries()) {
      const photos: FileInput[] = [];
      for (const [k, f] of a.photos.entries()) {
        const loaded = await loadFile(f, `${path}.answers[${j}].photos[${k}]`);
        if (loaded) photos.push(loaded);
      }
      answers.push({
        id: a.id?.toLowerCase() ?? randomUUID(),
        itemId: a.itemId,
        result: a.result,
        comment: a.comment ?? null,
        photos,
      });
    }
    const out = buildReport(
      {
        id: r.id?.toLowerCase() ?? randomUUID(),
        organizationId: vehicle.organization_id,
        vehicleId: r.vehicleId.toLowerCase(),
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

  // Resolutions given in the file.
  const existingDefects = new Map<string, Row>();
  const defectIds = data.resolutions.flatMap((r) => (r.defectId ? [r.defectId.toLowerCase()] : []));
  // Open defects already stored for the vehicles of the file (a later report may resolve them).
  const stored: Row[] = await knex('dvir.defects as df')
    .select('df.*', 'a.item_name')
    .leftJoin('dvir.inspection_answers as a', 'a.id', 'df.inspection_answer_id')
    .where((w) =>
      w
        .whereIn('df.id', defectIds)
        .orWhere((o) => o.whereIn('df.vehicle_id', vehicleIds).whereIn('df.status', ['OPEN', 'IN_REPAIR'])),
    );
  for (const d of stored) existingDefects.set(String(d.id), d);
  const changed = new Set<Row>();
  data.resolutions.forEach((res, i) => {
    const path = `$.resolutions[${i}]`;
    const defect = res.answerId
      ? answerToDefect.get(res.answerId.toLowerCase())
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
    if (res.by === 'USER') {
      const org = res.userId ? users.get(res.userId.toLowerCase()) : undefined;
      if (!res.userId) return void problems.push(`${path}.userId: required when by is USER`);
      if (!org) return void problems.push(`${path}.userId: no account ${res.userId}`);
      if (org !== defect.organization_id)
        return void problems.push(`${path}.userId: account of another organization`);
      problems.push(
        ...resolveDefect(
          defect,
          {
            by: 'USER',
            userId: res.userId.toLowerCase(),
            at: res.at,
            ...(res.status ? { status: res.status } : {}),
          },
          path,
        ),
      );
    } else {
      if (!res.mechanicName?.trim())
        return void problems.push(`${path}.mechanicName: required when by is MECHANIC`);
      problems.push(
        ...resolveDefect(defect, { by: 'MECHANIC', mechanicName: res.mechanicName, at: res.at }, path),
      );
    }
    changed.add(defect);
  });
  if (problems.length > 0) return { ok: false, problems };

  // Later reports resolve the open defects they find in order.
  const open: Row[] = [
    ...stored.filter((d) => ['OPEN', 'IN_REPAIR'].includes(String(d.status))),
    ...built.flatMap((b) => b.defects),
  ];
  const itemName = new Map<string, string>();
  for (const b of built) for (const a of b.answers) itemName.set(String(a.id), String(a.item_name));
  for (const report of [...built].sort(
    (a, b) => (a.report.started_at as Date).getTime() - (b.report.started_at as Date).getTime(),
  )) {
    const fixed = defectsFixedBy(
      report,
      open,
      (d) => (d.item_name as string | undefined) ?? itemName.get(String(d.inspection_answer_id)),
    );
    for (const d of fixed) {
      resolveDefect(
        d,
        {
          by: 'LATER_REPORT',
          reportId: String(report.report.id),
          at: (report.report.completed_at ?? report.report.started_at) as Date,
        },
        'auto',
      );
      changed.add(d);
    }
  }

  await knex.transaction(async (trx) => {
    await writeTemplates(trx, newTemplates);
    await writeReports(trx, files, built);
    for (const d of changed) {
      if (!existingDefects.has(String(d.id))) continue;
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

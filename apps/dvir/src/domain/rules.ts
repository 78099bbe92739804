/**
 * The DVIR domain rules, applied wherever data enters (the demo seed and the importer):
 *
 * 1. A report is taken against one template version; every answer must be to an item of that
 *    version, at most once, and when the report is submitted every required item is answered.
 * 2. An answer snapshots the item as it was: name, description, category, position, translations,
 *    photo limits and required flag (they stay right after the template changes).
 * 3. A DEFECT answer creates a defect linked to the answer, the item, the report and the reporting
 *    driver: DRAFT while the report is in progress, OPEN once submitted; `outOfService` when the
 *    report is OUT_OF_SERVICE.
 * 4. A report's status follows its answers: PENDING in progress; OUT_OF_SERVICE with a DEFECT in a
 *    category that makes driving unsafe; WITH_DEFECTS with any other DEFECT; else VALIDATED.
 * 5. Photos of an answer respect photoCountMax; a DEFECT answer carries at least photoCountMin.
 * 6. commentRequirement: a DEFECT answer needs a comment; commentOnSuccess: an OK answer too.
 * 7. A submitted report needs completedAt >= startedAt, and the driver's signature date when the
 *    template requires a signature.
 * 8. A defect is closed (RESOLVED / NOT_NEEDING_REPAIR) by a user, in a later report of the same
 *    vehicle (an OK answer to the same item name), or by a mechanic, always with resolvedAt.
 */
import { LANGUAGE_CODES } from '@fleetgraph/subgraph-kit';

export const OUT_OF_SERVICE_CATEGORIES = new Set(['BRAKES', 'TIRES', 'STEERING_SUSPENSION', 'LIGHTS']);
export const CATEGORIES = [
  'EXTERIOR',
  'INTERIOR',
  'ENGINE',
  'BRAKES',
  'TIRES',
  'LIGHTS',
  'STEERING_SUSPENSION',
  'SAFETY_EQUIPMENT',
  'DOCUMENTS',
  'CARGO',
  'OTHER',
] as const;
export const RESULTS = ['OK', 'DEFECT', 'NOT_APPLICABLE'] as const;
export const WORKFLOW = ['IN_PROGRESS', 'SUBMITTED', 'REVIEWED'] as const;
export const INSPECTION_TYPES = ['PRE_TRIP', 'POST_TRIP', 'PERIODIC'] as const;
export const VEHICLE_TYPES = [
  'CAR',
  'VAN',
  'LIGHT_TRUCK',
  'HEAVY_TRUCK',
  'BUS',
  'MOTORCYCLE',
  'TRAILER',
  'MACHINE',
  'OTHER',
] as const;
export const ATTACHMENT_KINDS = ['WALKAROUND', 'PHOTO', 'SIGNATURE', 'DOCUMENT'] as const;

export type Translations = Record<string, { name?: string; description?: string }>;

export interface ItemInput {
  id: string;
  orderPosition: number;
  category: string;
  name: string;
  description?: string | null;
  required?: boolean;
  commentRequirement?: boolean;
  commentOnSuccess?: boolean;
  photoCountMin?: number;
  photoCountMax?: number;
  translations?: Translations;
}

export interface TemplateInput {
  id: string;
  version: number;
  organizationId?: string | null;
  groupId?: string | null;
  name: string;
  description?: string | null;
  active?: boolean;
  vehicleType?: string;
  signatureRequired?: boolean;
  defaultLanguage?: string;
  translations?: Translations;
  createdAt: Date;
  items: ItemInput[];
}

export interface FileInput {
  id: string;
  kind: string;
  filename: string;
  /** bytes to store (absent: a record without a file) */
  bytes?: Uint8Array;
}

export interface AnswerInput {
  id: string;
  itemId: string;
  result: string;
  comment?: string | null;
  photos?: FileInput[];
  /** id of the defect a DEFECT answer creates (generated when absent) */
  defectId?: string;
}

export interface ReportInput {
  id: string;
  organizationId: string;
  vehicleId: string;
  groupId: string | null;
  driverId: string | null;
  templateId: string;
  templateVersion: number;
  vehicleType?: string;
  workflowStatus: string;
  inspectionType: string;
  odometer?: number | null;
  fuelLevel?: number | null;
  driverSignatureDate?: Date | null;
  locationLat?: number | null;
  locationLng?: number | null;
  locationAddress?: string | null;
  startedAt: Date;
  completedAt?: Date | null;
  answers: AnswerInput[];
  attachments?: FileInput[];
}

export type Row = Record<string, unknown>;

export interface PendingFile {
  row: Row;
  bytes: Uint8Array | undefined;
}

export interface ReportRows {
  report: Row;
  answers: Row[];
  defects: Row[];
  files: PendingFile[];
}

const blank = (s: unknown) => typeof s !== 'string' || s.trim() === '';

/** Problems of a template version (paths relative to `path`). */
export function checkTemplate(t: TemplateInput, path: string): string[] {
  const problems: string[] = [];
  if (!Number.isInteger(t.version) || t.version < 1)
    problems.push(`${path}.version: must be an integer >= 1`);
  if (blank(t.name)) problems.push(`${path}.name: must not be empty`);
  if (t.vehicleType && !(VEHICLE_TYPES as readonly string[]).includes(t.vehicleType))
    problems.push(`${path}.vehicleType: unknown "${t.vehicleType}" (one of ${VEHICLE_TYPES.join(', ')})`);
  if (t.defaultLanguage && !(LANGUAGE_CODES as readonly string[]).includes(t.defaultLanguage))
    problems.push(`${path}.defaultLanguage: unknown "${t.defaultLanguage}"`);
  const positions = new Set<number>();
  t.items.forEach((item, i) => {
    const p = `${path}.items[${i}]`;
    if (blank(item.name)) problems.push(`${p}.name: must not be empty`);
    if (!(CATEGORIES as readonly string[]).includes(item.category))
      problems.push(`${p}.category: unknown "${item.category}" (one of ${CATEGORIES.join(', ')})`);
    if (!Number.isInteger(item.orderPosition) || item.orderPosition < 1)
      problems.push(`${p}.orderPosition: must be an integer >= 1`);
    else if (positions.has(item.orderPosition))
      problems.push(`${p}.orderPosition: ${item.orderPosition} is used twice`);
    positions.add(item.orderPosition);
    const min = item.photoCountMin ?? 0;
    const max = item.photoCountMax ?? 3;
    if (!Number.isInteger(min) || min < 0) problems.push(`${p}.photoCountMin: must be an integer >= 0`);
    if (!Number.isInteger(max) || max < min)
      problems.push(`${p}.photoCountMax: must be an integer >= photoCountMin`);
  });
  return problems;
}

export function templateRows(t: TemplateInput, latest: boolean): { template: Row; items: Row[] } {
  return {
    template: {
      id: t.id,
      version: t.version,
      organization_id: t.organizationId ?? null,
      group_id: t.groupId ?? null,
      name: t.name,
      description: t.description ?? null,
      active: latest && (t.active ?? true),
      latest,
      vehicle_type: t.vehicleType ?? 'CAR',
      signature_required: t.signatureRequired ?? true,
      default_language: t.defaultLanguage ?? 'EN',
      translations: t.translations ?? {},
      created_at: t.createdAt,
      updated_at: t.createdAt,
    },
    items: t.items.map((item) => ({
      id: item.id,
      template_id: t.id,
      template_version: t.version,
      order_position: item.orderPosition,
      category: item.category,
      name: item.name,
      description: item.description ?? null,
      required: item.required ?? true,
      comment_requirement: item.commentRequirement ?? true,
      comment_on_success: item.commentOnSuccess ?? false,
      photo_count_min: item.photoCountMin ?? 0,
      photo_count_max: item.photoCountMax ?? 3,
      translations: item.translations ?? {},
      created_at: t.createdAt,
      updated_at: t.createdAt,
    })),
  };
}

/** The status a report's answers give it. */
export function reportStatus(
  workflowStatus: string,
  answers: Array<{ result: string; category: string }>,
): 'PENDING' | 'VALIDATED' | 'WITH_DEFECTS' | 'OUT_OF_SERVICE' {
  if (workflowStatus === 'IN_PROGRESS') return 'PENDING';
  const defects = answers.filter((a) => a.result === 'DEFECT');
  if (defects.some((a) => OUT_OF_SERVICE_CATEGORIES.has(a.category))) return 'OUT_OF_SERVICE';
  return defects.length > 0 ? 'WITH_DEFECTS' : 'VALIDATED';
}

/** Problems of a report's own fields (statuses, gauges, submission), before its answers. */
function reportFieldProblems(input: ReportInput, template: TemplateInput, path: string): string[] {
  const problems: string[] = [];
  if (!(WORKFLOW as readonly string[]).includes(input.workflowStatus))
    problems.push(
      `${path}.workflowStatus: unknown "${input.workflowStatus}" (one of ${WORKFLOW.join(', ')})`,
    );
  if (!(INSPECTION_TYPES as readonly string[]).includes(input.inspectionType))
    problems.push(
      `${path}.inspectionType: unknown "${input.inspectionType}" (one of ${INSPECTION_TYPES.join(', ')})`,
    );
  if (
    input.fuelLevel != null &&
    (!Number.isInteger(input.fuelLevel) || input.fuelLevel < 0 || input.fuelLevel > 100)
  )
    problems.push(`${path}.fuelLevel: must be an integer between 0 and 100`);
  if (input.odometer != null && (!Number.isInteger(input.odometer) || input.odometer < 0))
    problems.push(`${path}.odometer: must be a non-negative integer (km)`);
  if (input.workflowStatus !== 'IN_PROGRESS') {
    if (!input.completedAt) problems.push(`${path}.completedAt: a submitted report needs completedAt`);
    else if (input.completedAt < input.startedAt) problems.push(`${path}.completedAt: is before startedAt`);
    if ((template.signatureRequired ?? true) && !input.driverSignatureDate)
      problems.push(
        `${path}.driverSignatureDate: template "${template.name}" requires the driver's signature`,
      );
  }
  return problems;
}

/** What an answer breaks of its item's rules: photo counts and comments. */
function answerProblems(answer: AnswerInput, item: ItemInput, photos: FileInput[], p: string): string[] {
  const problems: string[] = [];
  const min = item.photoCountMin ?? 0;
  const max = item.photoCountMax ?? 3;
  if (photos.length > max)
    problems.push(`${p}.photos: ${photos.length} photos, item "${item.name}" allows at most ${max}`);
  if (answer.result === 'DEFECT' && photos.length < min)
    problems.push(
      `${p}.photos: a DEFECT on item "${item.name}" needs at least ${min} photo(s), got ${photos.length}`,
    );
  if (answer.result === 'DEFECT' && (item.commentRequirement ?? true) && blank(answer.comment))
    problems.push(`${p}.comment: item "${item.name}" requires a comment with a DEFECT answer`);
  if (answer.result === 'OK' && item.commentOnSuccess && blank(answer.comment))
    problems.push(`${p}.comment: item "${item.name}" requires a comment even when OK (commentOnSuccess)`);
  return problems;
}

/** Who may see a report's rows: its organization, vehicle and group. */
type Visibility = { organization_id: string; vehicle_id: string; group_id: string | null };

/** What the rows of one report are built with. */
interface ReportBuild {
  input: ReportInput;
  template: TemplateInput;
  visibility: Visibility;
  /** When its rows were created: completion, else start. */
  created: Date;
  submitted: boolean;
  problems: string[];
  files: PendingFile[];
}

/** An attachment row waiting for its bytes, its kind and name checked. */
function addFile(b: ReportBuild, f: FileInput, type: string, owner: string, p: string): void {
  if (!(ATTACHMENT_KINDS as readonly string[]).includes(f.kind))
    b.problems.push(`${p}.kind: unknown "${f.kind}" (one of ${ATTACHMENT_KINDS.join(', ')})`);
  if (blank(f.filename)) b.problems.push(`${p}.filename: must not be empty`);
  b.files.push({
    row: {
      id: f.id,
      ...b.visibility,
      attachable_type: type,
      attachable_id: owner,
      kind: f.kind,
      filename: f.filename,
      content_type: 'application/octet-stream',
      byte_size: 0,
      created_at: b.created,
      updated_at: b.created,
    },
    bytes: f.bytes,
  });
}

/** An answer's row, with a snapshot of its item as the template version defines it. */
function answerRow(b: ReportBuild, answer: AnswerInput, item: ItemInput): Row {
  return {
    id: answer.id,
    report_id: b.input.id,
    ...b.visibility,
    item_id: item.id,
    result: answer.result,
    comment: answer.comment ?? null,
    language: b.template.defaultLanguage ?? 'EN',
    item_name: item.name,
    item_description: item.description ?? null,
    item_category: item.category,
    item_order_position: item.orderPosition,
    item_translations: item.translations ?? {},
    photo_count_min: item.photoCountMin ?? 0,
    photo_count_max: item.photoCountMax ?? 3,
    item_required: item.required ?? true,
    created_at: b.created,
    updated_at: b.created,
  };
}

/** The defect a DEFECT answer raises: open once the report is submitted, a draft before. */
function defectRow(b: ReportBuild, answer: AnswerInput, item: ItemInput, defectId: string): Row {
  return {
    id: defectId,
    ...b.visibility,
    description: blank(answer.comment) ? item.name : answer.comment,
    status: b.submitted ? 'OPEN' : 'DRAFT',
    out_of_service: false,
    inspection_item_id: item.id,
    inspection_answer_id: answer.id,
    reported_in_report_id: b.input.id,
    reported_by_driver_id: b.input.driverId,
    created_at: b.created,
    updated_at: b.created,
  };
}

/** The report's own row, once its status is known. */
function reportRow(b: ReportBuild, status: string): Row {
  const { input, template } = b;
  return {
    id: input.id,
    ...b.visibility,
    driver_id: input.driverId,
    template_id: template.id,
    template_version: template.version,
    default_language: template.defaultLanguage ?? 'EN',
    vehicle_type: input.vehicleType ?? template.vehicleType ?? 'CAR',
    workflow_status: input.workflowStatus,
    status,
    inspection_type: input.inspectionType,
    odometer: input.odometer ?? null,
    fuel_level: input.fuelLevel ?? null,
    driver_signature_date: input.driverSignatureDate ?? null,
    location_lat: input.locationLat ?? null,
    location_lng: input.locationLng ?? null,
    location_address: input.locationAddress ?? null,
    started_at: input.startedAt,
    completed_at: input.completedAt ?? null,
    created_at: input.startedAt,
    updated_at: b.created,
  };
}

/**
 * Checks a report against its template version and builds its rows (report, answers with the
 * item snapshot, the defects of its DEFECT answers, attachment rows waiting for their bytes).
 */
export function buildReport(
  input: ReportInput,
  template: TemplateInput | undefined,
  path: string,
  newId: () => string,
): { problems: string[]; rows?: ReportRows } {
  if (!template) {
    return {
      problems: [
        `${path}.templateVersion: template ${input.templateId} has no version ${input.templateVersion}`,
      ],
    };
  }
  const b: ReportBuild = {
    input,
    template,
    visibility: {
      organization_id: input.organizationId,
      vehicle_id: input.vehicleId,
      group_id: input.groupId,
    },
    created: input.completedAt ?? input.startedAt,
    submitted: input.workflowStatus !== 'IN_PROGRESS',
    problems: reportFieldProblems(input, template, path),
    files: [],
  };
  const items = new Map(template.items.map((item) => [item.id.toLowerCase(), item]));
  const answered = new Set<string>();
  const answers: Row[] = [];
  const defects: Row[] = [];
  const categories: Array<{ result: string; category: string }> = [];
  input.answers.forEach((answer, i) => {
    const p = `${path}.answers[${i}]`;
    const item = items.get(answer.itemId.toLowerCase());
    if (!item) {
      b.problems.push(
        `${p}.itemId: ${answer.itemId} is not an item of template ${input.templateId} version ${input.templateVersion}`,
      );
      return;
    }
    if (answered.has(item.id)) b.problems.push(`${p}.itemId: item "${item.name}" is answered twice`);
    answered.add(item.id);
    if (!(RESULTS as readonly string[]).includes(answer.result)) {
      b.problems.push(`${p}.result: unknown "${answer.result}" (one of ${RESULTS.join(', ')})`);
      return;
    }
    const photos = answer.photos ?? [];
    b.problems.push(...answerProblems(answer, item, photos, p));
    categories.push({ result: answer.result, category: item.category });
    answers.push(answerRow(b, answer, item));
    photos.forEach((photo, j) => addFile(b, photo, 'InspectionAnswer', answer.id, `${p}.photos[${j}]`));
    if (answer.result === 'DEFECT') {
      const defectId = answer.defectId ?? newId();
      defects.push(defectRow(b, answer, item, defectId));
      // The defect shows the same photos as its answer.
      photos.forEach((photo, j) =>
        addFile(b, { ...photo, id: newId() }, 'Defect', defectId, `${p}.photos[${j}]`),
      );
    }
  });
  if (b.submitted) {
    template.items.forEach((item) => {
      if ((item.required ?? true) && !answered.has(item.id))
        b.problems.push(
          `${path}.answers: required item "${item.name}" (position ${item.orderPosition}) is not answered`,
        );
    });
  }
  (input.attachments ?? []).forEach((f, i) =>
    addFile(b, f, 'InspectionReport', input.id, `${path}.attachments[${i}]`),
  );
  if (b.problems.length > 0) return { problems: b.problems };
  const status = reportStatus(input.workflowStatus, categories);
  if (status === 'OUT_OF_SERVICE') for (const d of defects) d.out_of_service = true;
  return { problems: b.problems, rows: { report: reportRow(b, status), answers, defects, files: b.files } };
}

export type Resolution =
  | { by: 'USER'; userId: string; at: Date; status?: 'RESOLVED' | 'NOT_NEEDING_REPAIR' }
  | { by: 'MECHANIC'; mechanicName: string; at: Date }
  | { by: 'LATER_REPORT'; reportId: string; at: Date };

/** Closes an open defect row (in place); problems when it cannot be. */
export function resolveDefect(defect: Row, resolution: Resolution, path: string): string[] {
  if (!['OPEN', 'IN_REPAIR'].includes(String(defect.status)))
    return [
      `${path}: defect ${String(defect.id)} is ${String(defect.status)}, only OPEN or IN_REPAIR defects can be resolved`,
    ];
  if (resolution.at < (defect.created_at as Date))
    return [`${path}.at: a defect cannot be resolved before it was reported`];
  defect.resolved_at = resolution.at;
  defect.updated_at = resolution.at;
  if (resolution.by === 'USER') {
    defect.status = resolution.status ?? 'RESOLVED';
    defect.resolution = 'BY_USER';
    defect.resolved_by_user_id = resolution.userId;
  } else if (resolution.by === 'MECHANIC') {
    defect.status = 'RESOLVED';
    defect.resolution = 'BY_MECHANIC';
    defect.mechanic_name = resolution.mechanicName;
  } else {
    defect.status = 'RESOLVED';
    defect.resolution = 'IN_LATER_REPORT';
    defect.resolved_in_report_id = resolution.reportId;
  }
  return [];
}

/**
 * Open defects of the vehicle that a later submitted report finds in order: an OK answer to an
 * item of the same name (item ids change between template versions; names are what drivers see).
 */
export function defectsFixedBy(
  later: ReportRows,
  openDefects: Row[],
  itemNameOf: (defect: Row) => string | undefined,
): Row[] {
  if (later.report.workflow_status === 'IN_PROGRESS') return [];
  const okNames = new Set(later.answers.filter((a) => a.result === 'OK').map((a) => String(a.item_name)));
  return openDefects.filter(
    (d) =>
      d.vehicle_id === later.report.vehicle_id &&
      ['OPEN', 'IN_REPAIR'].includes(String(d.status)) &&
      (d.created_at as Date) < (later.report.started_at as Date) &&
      okNames.has(itemNameOf(d) ?? ''),
  );
}

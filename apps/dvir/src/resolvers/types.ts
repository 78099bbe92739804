/**
 * Field resolvers of the dvir types: localized labels, references to fleet-core, nested pages.
 * Ids are data (subgraph-kit visible-ids.ts): every `...Id` field, and every reference to a
 * fleet-core entity, is null when the caller does not see the object it names.
 */
import type { GraphQLResolveInfo } from 'graphql';
import { visibleId, visibleReference, type LookupOf } from '@fleetgraph/subgraph-kit';
import { CATEGORY_LABELS, RESULT_LABELS, tableLabel, translated } from '../domain/labels';
import { relationPage, type Ctx, type Row } from './common';

const withParentLocale = (row: Row | null, locale: unknown) =>
  row && locale ? { ...row, __locale: locale } : row;

/** Who says whether the object an id names is visible: fleet-core's contract or dvir's lookups. */
const seen = {
  vehicle: ((c) => c.reader.fleet.vehicle) as LookupOf<Ctx>,
  driver: ((c) => c.reader.fleet.driver) as LookupOf<Ctx>,
  group: ((c) => c.reader.fleet.group) as LookupOf<Ctx>,
  account: ((c) => c.reader.fleet.account) as LookupOf<Ctx>,
  report: ((c) => c.reader.report) as LookupOf<Ctx>,
  answer: ((c) => c.reader.answer) as LookupOf<Ctx>,
  item: ((c) => c.reader.item) as LookupOf<Ctx>,
  template: ((c) => c.reader.template) as LookupOf<Ctx>,
};

/** The one template version a report was taken against, when visible. */
const reportTemplate: LookupOf<Ctx> = (c, r) => ({
  load: () => c.reader.templateVersion.load(`${r.inspectionTemplateId}:${r.templateVersion}`),
});

/** An attachment's owner, by its type. */
const ATTACHABLE: Record<string, LookupOf<Ctx>> = {
  InspectionReport: seen.report,
  InspectionAnswer: seen.answer,
  Defect: (c) => c.reader.defect,
};

export const InspectionTemplate = {
  groupId: visibleId('groupId', seen.group),
  name: (t: Row) => translated(t.translations, 'name', t.__locale, t.baseName),
  description: (t: Row) => translated(t.translations, 'description', t.__locale, t.baseDescription),
  inspectionItems: async (t: Row, args: Record<string, unknown>, ctx: Ctx, info: GraphQLResolveInfo) => {
    const page = await relationPage('templateItems', (p) => `${p.id}:${p.version}`)(t, args, ctx, info);
    // A value of the parent, not of the request: a mark would split the batch per template.
    return { ...page, list: page.list.map((item) => ({ ...item, defaultLanguage: t.defaultLanguage })) };
  },
};

export const InspectionItem = {
  inspectionTemplateId: visibleId('inspectionTemplateId', seen.template),
  name: (i: Row) => translated(i.translations, 'name', i.__locale, i.baseName),
  description: (i: Row) => translated(i.translations, 'description', i.__locale, i.baseDescription),
  categoryLabel: (i: Row) => tableLabel(CATEGORY_LABELS, i.category, i.__locale, i.defaultLanguage ?? 'EN'),
};

export const InspectionAnswer = {
  inspectionReportId: visibleId('inspectionReportId', seen.report),
  inspectionItemId: visibleId('inspectionItemId', seen.item),
  resultLabel: (a: Row) => tableLabel(RESULT_LABELS, a.result, a.__locale, a.language),
  itemName: (a: Row) => translated(a.itemTranslations, 'name', a.__locale, a.baseItemName),
  itemDescription: (a: Row) =>
    translated(a.itemTranslations, 'description', a.__locale, a.baseItemDescription),
  itemCategoryLabel: (a: Row) => tableLabel(CATEGORY_LABELS, a.itemCategory, a.__locale, a.language),
  attachments: relationPage('answerAttachments'),
};

export const InspectionReport = {
  groupId: visibleId('groupId', seen.group),
  vehicleId: visibleId('vehicleId', seen.vehicle),
  vehicle: visibleReference('Vehicle', 'vehicleId', seen.vehicle),
  driverId: visibleId('driverId', seen.driver),
  driver: visibleReference('Driver', 'driverId', seen.driver),
  inspectionTemplateId: visibleId('inspectionTemplateId', reportTemplate),
  inspectionTemplate: async (r: Row, args: { locale?: string | null }, { reader }: Ctx) =>
    withParentLocale(
      await reader.templateVersion.load(`${r.inspectionTemplateId}:${r.templateVersion}`),
      args.locale,
    ),
  inspectionAnswers: relationPage('reportAnswers'),
  defects: relationPage('reportDefects'),
  attachments: relationPage('reportAttachments'),
};

export const Defect = {
  vehicleId: visibleId('vehicleId', seen.vehicle),
  vehicle: visibleReference('Vehicle', 'vehicleId', seen.vehicle),
  reportedByDriverId: visibleId('reportedByDriverId', seen.driver),
  reportedByDriver: visibleReference('Driver', 'reportedByDriverId', seen.driver),
  resolvedByUserId: visibleId('resolvedByUserId', seen.account),
  resolvedByUser: visibleReference('Account', 'resolvedByUserId', seen.account),
  inspectionItemId: visibleId('inspectionItemId', seen.item),
  inspectionAnswerId: visibleId('inspectionAnswerId', seen.answer),
  reportedInInspectionReportId: visibleId('reportedInInspectionReportId', seen.report),
  resolvedInInspectionReportId: visibleId('resolvedInInspectionReportId', seen.report),
  inspectionItem: async (d: Row, args: { locale?: string | null }, { reader }: Ctx) =>
    d.inspectionItemId ? withParentLocale(await reader.item.load(d.inspectionItemId), args.locale) : null,
  reportedInInspectionReport: (d: Row, _: unknown, { reader }: Ctx) =>
    d.reportedInInspectionReportId ? reader.report.load(d.reportedInInspectionReportId) : null,
  resolvedInInspectionReport: (d: Row, _: unknown, { reader }: Ctx) =>
    d.resolvedInInspectionReportId ? reader.report.load(d.resolvedInInspectionReportId) : null,
  attachments: relationPage('defectAttachments'),
};

export const DvirAttachment = {
  attachableId: visibleId('attachableId', (c: Ctx, a) => ATTACHABLE[String(a.attachableType)]?.(c, a)),
  fileAttached: (a: Row) => Boolean(a.storageKey) && Number(a.byteSize) > 0,
  fileUrl: (a: Row, _: unknown, { reader }: Ctx) =>
    reader.files.url({
      id: a.id,
      storageKey: a.storageKey,
      filename: a.filename,
      contentType: a.contentType,
    }),
};

export const Vehicle = {
  __resolveReference: async (ref: { id: string }, { reader }: Ctx) =>
    (await reader.fleet.vehicle.load(String(ref.id))) ? { id: String(ref.id).toLowerCase() } : null,
  inspectionReports: relationPage('vehicleReports'),
  openDefects: relationPage('vehicleOpenDefects'),
  defects: relationPage('vehicleDefects'),
  dvirSafeToDrive: (v: Row, _: unknown, { reader }: Ctx) => reader.safeToDrive.load(v.id),
  lastInspectionReport: (v: Row, _: unknown, { reader }: Ctx) => reader.lastReport.load(v.id),
};

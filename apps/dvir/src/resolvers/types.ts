/** Field resolvers of the dvir types: localized labels, references to fleet-core, nested pages. */
import type { GraphQLResolveInfo } from 'graphql';
import { CATEGORY_LABELS, RESULT_LABELS, tableLabel, translated } from '../domain/labels';
import { reference, relationPage, type Ctx, type Row } from './common';

const withParentLocale = (row: Row | null, locale: unknown) =>
  row && locale ? { ...row, __locale: locale } : row;

export const InspectionTemplate = {
  name: (t: Row) => translated(t.translations, 'name', t.__locale, t.baseName),
  description: (t: Row) => translated(t.translations, 'description', t.__locale, t.baseDescription),
  inspectionItems: async (t: Row, args: Record<string, unknown>, ctx: Ctx, info: GraphQLResolveInfo) => {
    const page = await relationPage('templateItems', (p) => `${p.id}:${p.version}`)(t, args, ctx, info);
    // A value of the parent, not of the request: a mark would split the batch per template.
    return { ...page, list: page.list.map((item) => ({ ...item, defaultLanguage: t.defaultLanguage })) };
  },
};

export const InspectionItem = {
  name: (i: Row) => translated(i.translations, 'name', i.__locale, i.baseName),
  description: (i: Row) => translated(i.translations, 'description', i.__locale, i.baseDescription),
  categoryLabel: (i: Row) => tableLabel(CATEGORY_LABELS, i.category, i.__locale, i.defaultLanguage ?? 'EN'),
};

export const InspectionAnswer = {
  resultLabel: (a: Row) => tableLabel(RESULT_LABELS, a.result, a.__locale, a.language),
  itemName: (a: Row) => translated(a.itemTranslations, 'name', a.__locale, a.baseItemName),
  itemDescription: (a: Row) =>
    translated(a.itemTranslations, 'description', a.__locale, a.baseItemDescription),
  itemCategoryLabel: (a: Row) => tableLabel(CATEGORY_LABELS, a.itemCategory, a.__locale, a.language),
  attachments: relationPage('answerAttachments'),
};

export const InspectionReport = {
  vehicle: (r: Row) => reference('Vehicle', r.vehicleId),
  driver: (r: Row) => reference('Driver', r.driverId),
  inspectionTemplate: async (r: Row, args: { locale?: string | null }, { loaders }: Ctx) =>
    withParentLocale(
      await loaders.templateVersion.load(`${r.inspectionTemplateId}:${r.templateVersion}`),
      args.locale,
    ),
  inspectionAnswers: relationPage('reportAnswers'),
  defects: relationPage('reportDefects'),
  attachments: relationPage('reportAttachments'),
};

export const Defect = {
  vehicle: (d: Row) => reference('Vehicle', d.vehicleId),
  reportedByDriver: (d: Row) => reference('Driver', d.reportedByDriverId),
  resolvedByUser: (d: Row) => reference('Account', d.resolvedByUserId),
  inspectionItem: async (d: Row, args: { locale?: string | null }, { loaders }: Ctx) =>
    d.inspectionItemId ? withParentLocale(await loaders.item.load(d.inspectionItemId), args.locale) : null,
  reportedInInspectionReport: (d: Row, _: unknown, { loaders }: Ctx) =>
    d.reportedInInspectionReportId ? loaders.report.load(d.reportedInInspectionReportId) : null,
  resolvedInInspectionReport: (d: Row, _: unknown, { loaders }: Ctx) =>
    d.resolvedInInspectionReportId ? loaders.report.load(d.resolvedInInspectionReportId) : null,
  attachments: relationPage('defectAttachments'),
};

export const DvirAttachment = {
  fileAttached: (a: Row) => Boolean(a.storageKey) && Number(a.byteSize) > 0,
  fileUrl: (a: Row, _: unknown, { loaders }: Ctx) =>
    loaders.files.url({
      id: a.id,
      storageKey: a.storageKey,
      filename: a.filename,
      contentType: a.contentType,
    }),
};

export const Vehicle = {
  __resolveReference: async (ref: { id: string }, { loaders }: Ctx) =>
    (await loaders.vehicleVisible.load(String(ref.id))) ? { id: String(ref.id).toLowerCase() } : null,
  inspectionReports: relationPage('vehicleReports'),
  openDefects: relationPage('vehicleOpenDefects'),
  defects: relationPage('vehicleDefects'),
  dvirSafeToDrive: (v: Row, _: unknown, { loaders }: Ctx) => loaders.safeToDrive.load(v.id),
  lastInspectionReport: (v: Row, _: unknown, { loaders }: Ctx) => loaders.lastReport.load(v.id),
};

/**
 * The dvir tables as the paging helpers see them: explicit column lists (model field -> column)
 * and the keyset order of each list. Rows map straight to the models below.
 */
import type { TableSpec } from '@fleetgraph/paging';

export const templates: TableSpec = {
  table: 'dvir.inspection_templates',
  alias: 'tp',
  columns: {
    id: 'id',
    version: 'version',
    organizationId: 'organization_id',
    groupId: 'group_id',
    baseName: 'name',
    baseDescription: 'description',
    active: 'active',
    latest: 'latest',
    vehicleType: 'vehicle_type',
    signatureRequired: 'signature_required',
    defaultLanguage: 'default_language',
    translations: 'translations',
    createdAt: 'created_at',
    updatedAt: 'updated_at',
  },
  order: { columns: ['tp.name', 'tp.id', 'tp.version'], fields: ['baseName', 'id', 'version'] },
};

export const items: TableSpec = {
  table: 'dvir.inspection_items',
  alias: 'it',
  columns: {
    id: 'id',
    inspectionTemplateId: 'template_id',
    inspectionTemplateVersion: 'template_version',
    orderPosition: 'order_position',
    category: 'category',
    baseName: 'name',
    baseDescription: 'description',
    required: 'required',
    commentRequirement: 'comment_requirement',
    commentOnSuccess: 'comment_on_success',
    photoCountMin: 'photo_count_min',
    photoCountMax: 'photo_count_max',
    translations: 'translations',
    createdAt: 'created_at',
    updatedAt: 'updated_at',
  },
  order: { columns: ['it.order_position', 'it.id'], fields: ['orderPosition', 'id'] },
  // categoryLabel's default language is the parent template's, copied onto the row (types.ts).
  fieldNeeds: {
    name: ['translations', 'baseName'],
    description: ['translations', 'baseDescription'],
    categoryLabel: ['category'],
  },
};

export const reports: TableSpec = {
  table: 'dvir.inspection_reports',
  alias: 'r',
  columns: {
    id: 'id',
    organizationId: 'organization_id',
    vehicleId: 'vehicle_id',
    groupId: 'group_id',
    driverId: 'driver_id',
    inspectionTemplateId: 'template_id',
    templateVersion: 'template_version',
    defaultLanguage: 'default_language',
    vehicleType: 'vehicle_type',
    workflowStatus: 'workflow_status',
    status: 'status',
    inspectionType: 'inspection_type',
    odometer: 'odometer',
    fuelLevel: 'fuel_level',
    driverSignatureDate: 'driver_signature_date',
    locationLat: 'location_lat',
    locationLng: 'location_lng',
    locationAddress: 'location_address',
    startedAt: 'started_at',
    completedAt: 'completed_at',
    createdAt: 'created_at',
    updatedAt: 'updated_at',
  },
  order: { columns: ['r.started_at', 'r.id'], fields: ['startedAt', 'id'], direction: 'desc' },
  // What the resolvers of resolvers/types.ts read besides the field's own column.
  fieldNeeds: {
    vehicle: ['vehicleId'],
    driver: ['driverId'],
    inspectionTemplate: ['inspectionTemplateId', 'templateVersion'],
    inspectionTemplateId: ['inspectionTemplateId', 'templateVersion'],
    inspectionAnswers: [],
    defects: [],
    attachments: [],
  },
};

export const answers: TableSpec = {
  table: 'dvir.inspection_answers',
  alias: 'a',
  columns: {
    id: 'id',
    inspectionReportId: 'report_id',
    vehicleId: 'vehicle_id',
    inspectionItemId: 'item_id',
    result: 'result',
    comment: 'comment',
    language: 'language',
    baseItemName: 'item_name',
    baseItemDescription: 'item_description',
    itemCategory: 'item_category',
    itemOrderPosition: 'item_order_position',
    itemTranslations: 'item_translations',
    photoCountMin: 'photo_count_min',
    photoCountMax: 'photo_count_max',
    itemRequired: 'item_required',
    createdAt: 'created_at',
    updatedAt: 'updated_at',
  },
  order: {
    columns: ['a.report_id', 'a.item_order_position', 'a.id'],
    fields: ['inspectionReportId', 'itemOrderPosition', 'id'],
  },
  fieldNeeds: {
    resultLabel: ['result', 'language'],
    itemName: ['itemTranslations', 'baseItemName'],
    itemDescription: ['itemTranslations', 'baseItemDescription'],
    itemCategoryLabel: ['itemCategory', 'language'],
    attachments: [],
  },
};

export const defects: TableSpec = {
  table: 'dvir.defects',
  alias: 'df',
  columns: {
    id: 'id',
    vehicleId: 'vehicle_id',
    groupId: 'group_id',
    description: 'description',
    status: 'status',
    outOfService: 'out_of_service',
    inspectionItemId: 'inspection_item_id',
    inspectionAnswerId: 'inspection_answer_id',
    reportedInInspectionReportId: 'reported_in_report_id',
    reportedByDriverId: 'reported_by_driver_id',
    resolution: 'resolution',
    resolvedByUserId: 'resolved_by_user_id',
    resolvedInInspectionReportId: 'resolved_in_report_id',
    mechanicName: 'mechanic_name',
    resolvedAt: 'resolved_at',
    createdAt: 'created_at',
    updatedAt: 'updated_at',
  },
  order: { columns: ['df.created_at', 'df.id'], fields: ['createdAt', 'id'], direction: 'desc' },
  fieldNeeds: {
    vehicle: ['vehicleId'],
    inspectionItem: ['inspectionItemId'],
    reportedByDriver: ['reportedByDriverId'],
    reportedInInspectionReport: ['reportedInInspectionReportId'],
    resolvedInInspectionReport: ['resolvedInInspectionReportId'],
    resolvedByUser: ['resolvedByUserId'],
    attachments: [],
  },
};

export const attachments: TableSpec = {
  table: 'dvir.attachments',
  alias: 'at',
  columns: {
    id: 'id',
    vehicleId: 'vehicle_id',
    attachableType: 'attachable_type',
    attachableId: 'attachable_id',
    kind: 'kind',
    filename: 'filename',
    contentType: 'content_type',
    byteSize: 'byte_size',
    sha256: 'sha256',
    storageKey: 'storage_key',
    createdAt: 'created_at',
    updatedAt: 'updated_at',
  },
  order: { columns: ['at.created_at', 'at.id'], fields: ['createdAt', 'id'] },
  fieldNeeds: {
    attachableId: ['attachableId', 'attachableType'],
    fileAttached: ['storageKey', 'byteSize'],
    fileUrl: ['storageKey', 'filename', 'contentType'],
  },
};

export type Row = Record<string, any>;
export type TableSpecLike = TableSpec;

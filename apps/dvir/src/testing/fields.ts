/** Every field of the dvir types, for documents that select them all. */
export const ATTACHMENT = `id kind filename contentType byteSize fileAttached fileUrl attachableType attachableId createdAt updatedAt`;
export const ITEM = `id name description category categoryLabel orderPosition required commentRequirement commentOnSuccess
  photoCountMin photoCountMax inspectionTemplateId inspectionTemplateVersion translations createdAt updatedAt`;
export const TEMPLATE = `id name description active version groupId vehicleType signatureRequired translations defaultLanguage
  createdAt updatedAt inspectionItems { count next list { ${ITEM} } }`;
export const ANSWER = `id result resultLabel comment inspectionReportId inspectionItemId itemName itemDescription itemCategory
  itemCategoryLabel itemOrderPosition photoCountMin photoCountMax itemRequired createdAt updatedAt
  attachments { count next list { ${ATTACHMENT} } }`;
export const REPORT_SCALARS = `id templateVersion groupId vehicleId driverId vehicleType workflowStatus status inspectionType odometer
  fuelLevel driverSignatureDate locationLat locationLng locationAddress startedAt completedAt inspectionTemplateId
  createdAt updatedAt`;
export const DEFECT_SCALARS = `id vehicleId description status resolvedAt inspectionItemId inspectionAnswerId reportedInInspectionReportId
  reportedByDriverId resolvedByUserId resolvedInInspectionReportId resolution mechanicName outOfService createdAt updatedAt`;
export const DEFECT = `${DEFECT_SCALARS} vehicle { id } inspectionItem { ${ITEM} } reportedByDriver { id }
  reportedInInspectionReport { id } resolvedInInspectionReport { id } resolvedByUser { id }
  attachments { count next list { ${ATTACHMENT} } }`;
export const REPORT = `${REPORT_SCALARS} vehicle { id } driver { id } inspectionTemplate { ${TEMPLATE} }
  inspectionAnswers { count next list { ${ANSWER} } } defects { count next list { ${DEFECT} } }
  attachments { count next list { ${ATTACHMENT} } }`;

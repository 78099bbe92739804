import { test } from 'node:test';
import assert from 'node:assert/strict';
import { schemaEnums } from '@fleetgraph/subgraph-kit';
import manifest from '../manifest';
import { ATTACHMENT_KINDS, CATEGORIES, INSPECTION_TYPES, RESULTS, VEHICLE_TYPES, WORKFLOW } from './rules';

const dvirEnums = schemaEnums(manifest.schemaDir);

test("the domain rules' value lists are the dvir schema's enums, value for value", () => {
  const pairs: Array<[readonly string[], string]> = [
    [CATEGORIES, 'InspectionItemCategory'],
    [RESULTS, 'InspectionAnswerResult'],
    [WORKFLOW, 'DvirInspectionReportWorkflowStatus'],
    [INSPECTION_TYPES, 'DvirInspectionType'],
    [VEHICLE_TYPES, 'VehicleTypeName'],
    [ATTACHMENT_KINDS, 'DvirAttachmentKind'],
  ];
  for (const [values, name] of pairs)
    assert.deepEqual([...values].sort(), [...dvirEnums.get(name)!].sort(), name);
});

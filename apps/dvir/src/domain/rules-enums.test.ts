import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadSubgraphManifests, schemaEnums } from '@fleetgraph/subgraph-kit';
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

test("VehicleTypeName has exactly the values of fleet-core's VehicleType (its published schema)", async () => {
  const fleetCore = (await loadSubgraphManifests()).find((m) => m.name === 'fleet-core');
  assert.ok(fleetCore, 'fleet-core is a subgraph');
  const vehicleType = schemaEnums(fleetCore.schemaDir).get('VehicleType');
  assert.ok(vehicleType && vehicleType.length > 0, 'fleet-core defines VehicleType');
  assert.deepEqual([...dvirEnums.get('VehicleTypeName')!].sort(), [...vehicleType].sort());
});

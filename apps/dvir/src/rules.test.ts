import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  buildReport,
  checkTemplate,
  reportStatus,
  resolveDefect,
  type ReportInput,
  type TemplateInput,
} from './domain/rules';

const id = (n: number) => `00000000-0000-4000-8000-${n.toString().padStart(12, '0')}`;
const template: TemplateInput = {
  id: id(1),
  version: 2,
  name: 'Check',
  signatureRequired: true,
  defaultLanguage: 'FR',
  createdAt: new Date('2026-01-01T00:00:00Z'),
  items: [
    { id: id(11), orderPosition: 1, category: 'TIRES', name: 'Pneus', photoCountMin: 1, photoCountMax: 2 },
    { id: id(12), orderPosition: 2, category: 'DOCUMENTS', name: 'Papiers', commentOnSuccess: true },
    {
      id: id(13),
      orderPosition: 3,
      category: 'CARGO',
      name: 'Chargement',
      required: false,
      commentRequirement: false,
    },
  ],
};
const photo = (n: number) => ({
  id: id(100 + n),
  kind: 'PHOTO',
  filename: `p${n}.jpg`,
  bytes: new Uint8Array([0xff, 0xd8, 0xff]),
});
const report = (over: Partial<ReportInput> = {}): ReportInput => ({
  id: id(2),
  organizationId: id(3),
  vehicleId: id(4),
  groupId: id(5),
  driverId: id(6),
  templateId: id(1),
  templateVersion: 2,
  workflowStatus: 'SUBMITTED',
  inspectionType: 'PRE_TRIP',
  startedAt: new Date('2026-02-01T06:00:00Z'),
  completedAt: new Date('2026-02-01T06:10:00Z'),
  driverSignatureDate: new Date('2026-02-01T06:10:00Z'),
  answers: [
    { id: id(21), itemId: id(11), result: 'OK' },
    { id: id(22), itemId: id(12), result: 'OK', comment: 'À bord' },
  ],
  ...over,
});
let n = 0;
const newId = () => id(900 + ++n);

test('status follows the answers', () => {
  assert.equal(reportStatus('IN_PROGRESS', [{ result: 'DEFECT', category: 'BRAKES' }]), 'PENDING');
  assert.equal(reportStatus('SUBMITTED', [{ result: 'OK', category: 'BRAKES' }]), 'VALIDATED');
  assert.equal(reportStatus('SUBMITTED', [{ result: 'DEFECT', category: 'CARGO' }]), 'WITH_DEFECTS');
  assert.equal(reportStatus('REVIEWED', [{ result: 'DEFECT', category: 'TIRES' }]), 'OUT_OF_SERVICE');
});

test('a valid report snapshots its items; a DEFECT answer makes an out-of-service defect with the photos', () => {
  const out = buildReport(
    report({
      answers: [
        { id: id(21), itemId: id(11), result: 'DEFECT', comment: 'Usé', photos: [photo(1)] },
        { id: id(22), itemId: id(12), result: 'OK', comment: 'ok' },
      ],
    }),
    template,
    '$',
    newId,
  );
  assert.deepEqual(out.problems, []);
  const rows = out.rows!;
  assert.equal(rows.report.status, 'OUT_OF_SERVICE');
  assert.equal(rows.answers[0]!.item_name, 'Pneus');
  assert.equal(rows.answers[0]!.language, 'FR');
  assert.equal(rows.answers[0]!.photo_count_max, 2);
  assert.equal(rows.defects.length, 1);
  assert.equal(rows.defects[0]!.status, 'OPEN');
  assert.equal(rows.defects[0]!.out_of_service, true);
  assert.equal(rows.defects[0]!.reported_by_driver_id, id(6));
  assert.deepEqual(
    rows.files.map((f) => f.row.attachable_type),
    ['InspectionAnswer', 'Defect'],
  );
});

test('photo limits, comments, signature and required items are enforced', () => {
  const out = buildReport(
    report({
      driverSignatureDate: null,
      answers: [
        { id: id(21), itemId: id(11), result: 'OK', photos: [photo(1), photo(2), photo(3)] },
        { id: id(22), itemId: id(12), result: 'OK' },
        { id: id(23), itemId: id(13), result: 'DEFECT' },
      ],
    }),
    template,
    '$.r',
    newId,
  );
  assert.deepEqual(out.problems, [
    '$.r.driverSignatureDate: template "Check" requires the driver\'s signature',
    '$.r.answers[0].photos: 3 photos, item "Pneus" allows at most 2',
    '$.r.answers[1].comment: item "Papiers" requires a comment even when OK (commentOnSuccess)',
  ]);
  const missing = buildReport(
    report({ answers: [{ id: id(21), itemId: id(11), result: 'DEFECT', comment: 'x' }] }),
    template,
    '$',
    newId,
  );
  assert.deepEqual(missing.problems, [
    '$.answers[0].photos: a DEFECT on item "Pneus" needs at least 1 photo(s), got 0',
    '$.answers: required item "Papiers" (position 2) is not answered',
  ]);
  const draft = buildReport(
    report({
      workflowStatus: 'IN_PROGRESS',
      completedAt: null,
      driverSignatureDate: null,
      answers: [{ id: id(23), itemId: id(13), result: 'DEFECT' }],
    }),
    template,
    '$',
    newId,
  );
  assert.deepEqual(draft.problems, []);
  assert.equal(draft.rows!.defects[0]!.status, 'DRAFT');
  assert.equal(draft.rows!.report.status, 'PENDING');
  assert.deepEqual(buildReport(report(), undefined, '$', newId).problems, [
    `$.templateVersion: template ${id(1)} has no version 2`,
  ]);
});

test('templates are checked', () => {
  assert.deepEqual(
    checkTemplate(
      {
        ...template,
        items: [
          { id: id(1), orderPosition: 1, category: 'X', name: '', photoCountMin: 2, photoCountMax: 1 },
          { id: id(2), orderPosition: 1, category: 'CARGO', name: 'a' },
        ],
      },
      '$.t',
    ),
    [
      '$.t.items[0].name: must not be empty',
      '$.t.items[0].category: unknown "X" (one of EXTERIOR, INTERIOR, ENGINE, BRAKES, TIRES, LIGHTS, STEERING_SUSPENSION, SAFETY_EQUIPMENT, DOCUMENTS, CARGO, OTHER)',
      '$.t.items[0].photoCountMax: must be an integer >= photoCountMin',
      '$.t.items[1].orderPosition: 1 is used twice',
    ],
  );
});

test('defects resolve once, after they were reported, with resolvedAt', () => {
  const defect = { id: id(1), status: 'OPEN', created_at: new Date('2026-02-01T00:00:00Z') };
  assert.match(
    resolveDefect(
      { ...defect },
      { by: 'MECHANIC', mechanicName: 'M', at: new Date('2026-01-01T00:00:00Z') },
      '$',
    )[0]!,
    /before it was reported/,
  );
  const d = { ...defect } as Record<string, unknown>;
  assert.deepEqual(
    resolveDefect(
      d,
      { by: 'USER', userId: id(9), at: new Date('2026-02-02T00:00:00Z'), status: 'NOT_NEEDING_REPAIR' },
      '$',
    ),
    [],
  );
  assert.equal(d.status, 'NOT_NEEDING_REPAIR');
  assert.equal(d.resolution, 'BY_USER');
  assert.ok(d.resolved_at);
  assert.match(
    resolveDefect(d, { by: 'LATER_REPORT', reportId: id(3), at: new Date('2026-02-03T00:00:00Z') }, '$')[0]!,
    /only OPEN or IN_REPAIR/,
  );
});

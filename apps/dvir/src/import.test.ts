import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '@fleetgraph/testing';
import { D, fixtureImages, startDvirHarness, type DvirHarness } from './testing/fixture';
import { importReportsFile } from './import/reports';
import manifest from './manifest';

let h: DvirHarness;
let F: any;
const T = '7e000000-0000-4000-8000-0000000000aa';
const item = (n: number) => `7f000000-0000-4000-8000-0000000009${n.toString().padStart(2, '0')}`;
const dir = scratchDir('dvir-import');
const write = (name: string, data: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(data));
  return path;
};

before(async () => {
  h = await startDvirHarness('dvir-import');
  F = h.facts['fleet-core'];
});
after(async () => h?.close());

const template = {
  id: T,
  version: 1,
  name: 'Imported check',
  groupId: null as string | null,
  defaultLanguage: 'EN',
  signatureRequired: false,
  translations: { NL: { name: 'Geïmporteerde controle' } },
  items: [
    { id: item(1), orderPosition: 1, category: 'BRAKES', name: 'Brakes', photoCountMin: 1, photoCountMax: 1 },
    {
      id: item(2),
      orderPosition: 2,
      category: 'EXTERIOR',
      name: 'Body',
      commentOnSuccess: true,
      translations: { NL: { name: 'Carrosserie' } },
    },
  ],
};

/** The problems of an import that must be refused. */
async function refusedImport(file: string): Promise<string[]> {
  const out = await importReportsFile(h.knex, file, { log: () => {}, now: new Date() }, h.config);
  assert.equal(out.ok, false);
  return (out as { problems: string[] }).problems;
}

/** Each pattern matches one of the problems. */
function assertProblems(problems: string[], expected: RegExp[]): void {
  for (const re of expected)
    assert.ok(
      problems.some((p) => re.test(p)),
      `${re} in\n${problems.join('\n')}`,
    );
}

test('the manifest lists the importer', () => {
  assert.ok(manifest.importers?.reports?.description);
});

test('a dataset is imported with the rules: defect from a DEFECT answer, later report and mechanic resolutions', async () => {
  template.groupId = F.groups.depot;
  const { png } = await fixtureImages();
  writeFileSync(join(dir, 'photo.png'), png);
  const reportA = '7a000000-0000-4000-8000-0000000000a1';
  const reportB = '7a000000-0000-4000-8000-0000000000a2';
  const file = write('ok.json', {
    templates: [template],
    reports: [
      {
        id: reportA,
        vehicleId: F.vehicles.depot[2],
        driverId: F.drivers.anna,
        templateId: T,
        templateVersion: 1,
        inspectionType: 'PRE_TRIP',
        workflowStatus: 'SUBMITTED',
        startedAt: '2026-03-20T06:00:00Z',
        completedAt: '2026-03-20T06:10:00Z',
        location: { lat: 50.1, lng: 4.2, address: 'Depot' },
        answers: [
          {
            id: D.answer(90, 1),
            itemId: item(1),
            result: 'DEFECT',
            comment: 'Soft pedal',
            photos: [{ kind: 'PHOTO', filename: 'brake.png', path: 'photo.png' }],
          },
          { itemId: item(2), result: 'OK', comment: 'Clean' },
        ],
        attachments: [{ kind: 'WALKAROUND', filename: 'w.png', base64: Buffer.from(png).toString('base64') }],
      },
      {
        id: reportB,
        vehicleId: F.vehicles.depot[2],
        templateId: T,
        templateVersion: 1,
        inspectionType: 'POST_TRIP',
        workflowStatus: 'SUBMITTED',
        startedAt: '2026-03-21T17:00:00Z',
        completedAt: '2026-03-21T17:05:00Z',
        answers: [
          { itemId: item(1), result: 'OK' },
          { itemId: item(2), result: 'OK', comment: 'Fine' },
        ],
      },
    ],
    resolutions: [
      { defectId: D.defect(5), by: 'MECHANIC', mechanicName: 'Garage Nord', at: '2026-03-22T10:00:00Z' },
    ],
  });
  const out = await importReportsFile(
    h.knex,
    file,
    { log: () => {}, now: new Date('2026-03-25T00:00:00Z') },
    h.config,
  );
  assert.deepEqual(out, {
    ok: true,
    summary: { templates: 1, reports: 2, answers: 4, defects: 1, attachments: 3, resolved: 2 },
  });
  const alice = h.as(F.alice);
  const res = await alice(
    `query($id: ID!, $d: ID!) { inspectionReport(id: $id) { status defects { list { status resolution resolvedInInspectionReportId reportedByDriverId attachments { count } } } attachments { list { contentType byteSize } } inspectionAnswers(locale: NL) { list { itemName } } }
      defect(id: $d) { status resolution mechanicName resolvedAt } }`,
    { id: reportA, d: D.defect(5) },
  );
  assert.equal(res.errors, undefined, JSON.stringify(res.errors));
  const r = res.data.inspectionReport;
  assert.equal(r.status, 'OUT_OF_SERVICE');
  assert.deepEqual(r.defects.list, [
    {
      status: 'RESOLVED',
      resolution: 'IN_LATER_REPORT',
      resolvedInInspectionReportId: reportB,
      reportedByDriverId: F.drivers.anna,
      attachments: { count: 1 },
    },
  ]);
  assert.deepEqual(r.attachments.list, [{ contentType: 'image/png', byteSize: png.byteLength }]);
  assert.deepEqual(
    r.inspectionAnswers.list.map((a: any) => a.itemName),
    ['Brakes', 'Carrosserie'],
  );
  assert.deepEqual(res.data.defect, {
    status: 'RESOLVED',
    resolution: 'BY_MECHANIC',
    mechanicName: 'Garage Nord',
    resolvedAt: '2026-03-22T10:00:00.000Z',
  });
});

test('every problem is listed by JSON path and nothing is written', async () => {
  const before = await h.knex('dvir.inspection_reports').count('* as n').first();
  const file = write('bad.json', {
    templates: [
      {
        ...template,
        id: '7e000000-0000-4000-8000-0000000000bb',
        items: [{ ...template.items[0], category: 'WHEELS' }],
      },
    ],
    reports: [
      {
        vehicleId: F.vehicles.depot[0],
        driverId: F.drivers.greta,
        templateId: T,
        templateVersion: 1,
        inspectionType: 'PRE_TRIP',
        workflowStatus: 'SUBMITTED',
        startedAt: '2026-03-23T06:00:00Z',
        completedAt: '2026-03-23T05:00:00Z',
        fuelLevel: 140,
        answers: [
          { itemId: item(1), result: 'DEFECT' },
          { itemId: item(1), result: 'OK' },
          { itemId: '7f000000-0000-4000-8000-000000000999', result: 'OK' },
        ],
      },
      {
        vehicleId: '00000000-0000-4000-8000-000000000000',
        templateId: T,
        templateVersion: 1,
        inspectionType: 'PRE_TRIP',
        workflowStatus: 'SUBMITTED',
        startedAt: '2026-03-23T06:00:00Z',
        answers: [],
      },
    ],
    resolutions: [{ defectId: D.defect(1), by: 'USER', userId: F.carol.uid, at: '2026-03-23T06:00:00Z' }],
  });
  const problems = await refusedImport(file);
  const expected = [
    /^\$\.templates\[0\]\.items\[0\]\.category: unknown "WHEELS"/,
    /^\$\.reports\[0\]\.driverId: driver .* another organization/,
    /^\$\.reports\[0\]\.fuelLevel: must be an integer between 0 and 100/,
    /^\$\.reports\[0\]\.completedAt: is before startedAt/,
    /^\$\.reports\[0\]\.answers\[0\]\.photos: a DEFECT on item "Brakes" needs at least 1 photo/,
    /^\$\.reports\[0\]\.answers\[0\]\.comment: item "Brakes" requires a comment/,
    /^\$\.reports\[0\]\.answers\[1\]\.itemId: item "Brakes" is answered twice/,
    /^\$\.reports\[0\]\.answers\[2\]\.itemId: .* is not an item of template/,
    /^\$\.reports\[0\]\.answers: required item "Body"/,
    /^\$\.reports\[1\]\.vehicleId: no vehicle/,
    /^\$\.resolutions\[0\]\.userId: account of another organization/,
  ];
  assertProblems(problems, expected);
  const afterCount = await h.knex('dvir.inspection_reports').count('* as n').first();
  assert.equal(Number(afterCount!.n), Number(before!.n));
  assert.equal(
    await h.knex('dvir.inspection_templates').where('id', '7e000000-0000-4000-8000-0000000000bb').first(),
    undefined,
  );
});

test('problems of templates, files, reports and resolutions are listed by path, and nothing is written', async () => {
  const U = '7e000000-0000-4000-8000-0000000000cc';
  const G = '7e000000-0000-4000-8000-0000000000dd';
  const defectAnswer = '7d000000-0000-4000-8000-0000000000e1';
  const unknown = '00000000-0000-4000-8000-0000000000ff';
  const { png } = await fixtureImages();
  const items = template.items.map((it, i) => ({ ...it, id: `7f000000-0000-4000-8000-0000000008${i}0` }));
  const file = write('problems.json', {
    templates: [
      { ...template, id: U, groupId: null, items },
      { ...template, id: U, groupId: unknown, items },
      { ...template, id: G, groupId: F.groups.globex, items },
    ],
    reports: [
      {
        vehicleId: F.vehicles.depot[1],
        driverId: unknown,
        templateId: U,
        templateVersion: 1,
        inspectionType: 'PRE_TRIP',
        workflowStatus: 'SUBMITTED',
        startedAt: '2026-03-24T06:00:00Z',
        completedAt: '2026-03-24T06:10:00Z',
        answers: [
          {
            id: defectAnswer,
            itemId: items[0]!.id,
            result: 'DEFECT',
            comment: 'Soft pedal',
            photos: [{ kind: 'PHOTO', filename: 'brake.png', base64: Buffer.from(png).toString('base64') }],
          },
          { itemId: items[1]!.id, result: 'OK', comment: 'Clean' },
        ],
        attachments: [
          { kind: 'WALKAROUND', filename: 'empty.png', base64: '' },
          { kind: 'WALKAROUND', filename: 'gone.png', path: 'no-such-file.png' },
        ],
      },
      {
        vehicleId: F.vehicles.depot[1],
        templateId: G,
        templateVersion: 1,
        inspectionType: 'PRE_TRIP',
        workflowStatus: 'SUBMITTED',
        startedAt: '2026-03-24T07:00:00Z',
        answers: [],
      },
    ],
    resolutions: [
      { by: 'MECHANIC', mechanicName: 'Garage', at: '2026-03-24T10:00:00Z' },
      { defectId: unknown, by: 'MECHANIC', mechanicName: 'Garage', at: '2026-03-24T10:00:00Z' },
      { answerId: defectAnswer, by: 'MECHANIC', mechanicName: ' ', at: '2026-03-24T10:00:00Z' },
      { answerId: defectAnswer, by: 'USER', at: '2026-03-24T10:00:00Z' },
      { answerId: defectAnswer, by: 'USER', userId: unknown, at: '2026-03-24T10:00:00Z' },
    ],
  });
  const problems = await refusedImport(file);
  const expected = [
    /^\$\.templates\[1\]\.groupId: no group /,
    new RegExp(`^\\$\\.templates\\[1\\]\\.version: template ${U} version 1 already exists`),
    /^\$\.reports\[0\]\.driverId: no driver /,
    /^\$\.reports\[0\]\.attachments\[0\]: the file is empty/,
    /^\$\.reports\[0\]\.attachments\[1\]\.path: cannot read no-such-file\.png \(ENOENT\)/,
    /^\$\.reports\[1\]\.templateId: template .* belongs to another organization/,
    /^\$\.resolutions\[0\]: needs answerId \(a DEFECT answer of this file\) or defectId/,
    new RegExp(`^\\$\\.resolutions\\[1\\]: no defect for defect ${unknown}`),
    /^\$\.resolutions\[2\]\.mechanicName: required when by is MECHANIC/,
    /^\$\.resolutions\[3\]\.userId: required when by is USER/,
    new RegExp(`^\\$\\.resolutions\\[4\\]\\.userId: no account ${unknown}`),
  ];
  assertProblems(problems, expected);
  for (const id of [U, G])
    assert.equal(await h.knex('dvir.inspection_templates').where('id', id).first(), undefined);
});

test('malformed JSON and shapes are reported by path', async () => {
  const shape = await importReportsFile(
    h.knex,
    write('shape.json', { reports: [{ vehicleId: 'x', answers: 'no' }] }),
    { log: () => {}, now: new Date() },
    h.config,
  );
  assert.equal(shape.ok, false);
  const problems = (shape as { problems: string[] }).problems;
  assert.ok(
    problems.some((p) => p.startsWith('$.reports[0].vehicleId:')),
    problems.join('\n'),
  );
  assert.ok(
    problems.some((p) => p.startsWith('$.reports[0].answers:')),
    problems.join('\n'),
  );
  const path = join(dir, 'broken.json');
  writeFileSync(path, '{ nope');
  const broken = await importReportsFile(h.knex, path, { log: () => {}, now: new Date() }, h.config);
  assert.equal(broken.ok, false);
});

test('a report names its vehicle by id, VIN or plate, as every importer does; an unknown one is a problem by path', async () => {
  const [vehicle] = await h
    .knex('fleet_contract.vehicles_v1')
    .where('id', F.vehicles.depot[1])
    .select('vin', 'plate');
  assert.ok(vehicle?.vin && vehicle.plate, 'the fixture vehicle has a VIN and a plate');
  const TR = '7e000000-0000-4000-8000-0000000000ac';
  const own = (n: number) => `7f000000-0000-4000-8000-0000000009a${n}`;
  const referencesTemplate = {
    ...template,
    id: TR,
    groupId: F.groups.depot,
    items: template.items.map((it, k) => ({ ...it, id: own(k + 1) })),
  };
  const report = (n: number, reference: Record<string, string>) => ({
    id: `7a000000-0000-4000-8000-0000000000b${n}`,
    ...reference,
    templateId: TR,
    templateVersion: 1,
    inspectionType: 'PRE_TRIP',
    workflowStatus: 'SUBMITTED',
    startedAt: `2026-04-0${n}T06:00:00Z`,
    completedAt: `2026-04-0${n}T06:10:00Z`,
    answers: [
      { itemId: own(1), result: 'OK' },
      { itemId: own(2), result: 'OK', comment: 'Fine' },
    ],
  });
  const unknown = await refusedImport(
    write('references-unknown.json', {
      templates: [referencesTemplate],
      reports: [report(1, { vehicle: 'NO-SUCH-PLATE' })],
    }),
  );
  assertProblems(unknown, [
    /^\$\.reports\[0\]\.vehicle: no vehicle with the id, VIN or plate "NO-SUCH-PLATE"/,
  ]);
  const twice = await refusedImport(
    write('references-twice.json', {
      templates: [referencesTemplate],
      reports: [report(2, { vehicle: vehicle.vin, vehicleId: F.vehicles.depot[1] })],
    }),
  );
  assertProblems(twice, [/^\$\.reports\[0\]\.vehicle: name the vehicle once/]);
  const spacedPlate = vehicle.plate.toLowerCase().replace(/[\s-]+/g, ' - ');
  const out = await importReportsFile(
    h.knex,
    write('references.json', {
      templates: [referencesTemplate],
      reports: [
        report(3, { vehicle: vehicle.vin.toLowerCase() }),
        report(4, { vehicle: spacedPlate }),
        report(5, { vehicle: F.vehicles.depot[1] }),
      ],
    }),
    { log: () => {}, now: new Date('2026-04-10T00:00:00Z') },
    h.config,
  );
  assert.equal(out.ok, true, JSON.stringify(out));
  const stored = await h
    .knex('dvir.inspection_reports')
    .whereIn(
      'id',
      [3, 4, 5].map((n) => `7a000000-0000-4000-8000-0000000000b${n}`),
    )
    .pluck('vehicle_id');
  assert.deepEqual(stored, [F.vehicles.depot[1], F.vehicles.depot[1], F.vehicles.depot[1]]);
  // The same template again: its version and its item ids exist now, each a problem by path.
  const again = await refusedImport(write('references-again.json', { templates: [referencesTemplate] }));
  assertProblems(again, [
    /^\$\.templates\[0\]\.version: template .* version 1 already exists/,
    /^\$\.templates\[0\]\.items\[0\]\.id: an item .* already exists/,
  ]);
});

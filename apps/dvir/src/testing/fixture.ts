/**
 * A small DVIR dataset with known answers over fleet-core's test fixture, written through the
 * domain rules (the same path as the seed and the importer).
 */
import type { Knex } from 'knex';
import sharp from 'sharp';
import { startSubgraphHarness, type SubgraphHarness } from '@fleetgraph/subgraph-kit/testing';
import { scratchDir } from '@fleetgraph/testing';
import { loadDvirConfig, type DvirConfig } from '../config';
import { fileServiceFor } from '../data/files/index';
import { buildReport, resolveDefect, type ReportInput, type TemplateInput } from '../domain/rules';
import { writeReports, writeTemplates } from '../domain/write';
import manifest from '../manifest';

const uuid = (n: number, prefix: string) => `${prefix}-0000-4000-8000-${n.toString().padStart(12, '0')}`;

export const D = {
  templates: { acme: uuid(1, '7e000000'), depot: uuid(2, '7e000000'), globex: uuid(3, '7e000000') },
  items: {
    /** acme v1 items by position 1..4; v2 items 11..14 */
    acme: (version: number, position: number) => uuid(version * 10 + position, '7f000000'),
    depot: (position: number) => uuid(100 + position, '7f000000'),
    globex: (position: number) => uuid(200 + position, '7f000000'),
  },
  reports: {
    /** depot vehicle 0, v1, OUT_OF_SERVICE (brakes), later fixed by r2 */
    r1: uuid(1, '7a000000'),
    /** depot vehicle 0, v2, VALIDATED, resolves r1's defect */
    r2: uuid(2, '7a000000'),
    /** depot vehicle 0, in progress with a DRAFT defect */
    r3: uuid(3, '7a000000'),
    /** south vehicle 0, WITH_DEFECTS (exterior), open */
    r4: uuid(4, '7a000000'),
    /** depot vehicle 1, OUT_OF_SERVICE (tires), defect open: not safe to drive */
    r5: uuid(5, '7a000000'),
    /** globex vehicle, VALIDATED */
    r6: uuid(6, '7a000000'),
    /** depot vehicle 2, depot template (FR), WITH_DEFECTS resolved by a mechanic */
    r7: uuid(7, '7a000000'),
  },
  answer: (report: number, position: number) => uuid(report * 10 + position, '7b000000'),
  defect: (report: number) => uuid(report, '7d000000'),
  attachment: (n: number) => uuid(n, '7c000000'),
  start: new Date('2026-03-10T07:00:00.000Z'),
};

const ACME_ITEMS_V1 = [
  {
    category: 'EXTERIOR',
    name: 'Body and mirrors',
    fr: 'Carrosserie et rétroviseurs',
    de: 'Karosserie und Spiegel',
  },
  { category: 'BRAKES', name: 'Brakes', fr: 'Freins', de: 'Bremsen' },
  { category: 'TIRES', name: 'Tires', fr: 'Pneus', de: 'Reifen' },
  { category: 'LIGHTS', name: 'Lights', fr: 'Feux', de: 'Beleuchtung' },
];

export function fixtureTemplates(f: any): TemplateInput[] {
  const acme = (version: number): TemplateInput => ({
    id: D.templates.acme,
    version,
    organizationId: f.orgA,
    groupId: null,
    name: version === 1 ? 'Daily check' : 'Daily check v2',
    description: 'Walkaround before and after driving',
    vehicleType: 'VAN',
    signatureRequired: true,
    defaultLanguage: 'EN',
    translations: { FR: { name: 'Contrôle quotidien' }, DE: { name: 'Tägliche Prüfung' } },
    createdAt: new Date(D.start.getTime() - (3 - version) * 86_400_000),
    items: ACME_ITEMS_V1.map((it, i) => ({
      id: D.items.acme(version, i + 1),
      orderPosition: i + 1,
      category: it.category,
      // v2 renames the tires item: v1 answers keep "Tires".
      name: version === 2 && it.category === 'TIRES' ? 'Tyres and wheels' : it.name,
      description: `Check the ${it.name.toLowerCase()}`,
      photoCountMin: it.category === 'BRAKES' ? 1 : 0,
      photoCountMax: 2,
      commentOnSuccess: false,
      translations: { FR: { name: it.fr }, DE: { name: it.de } },
    })),
  });
  return [
    acme(1),
    acme(2),
    {
      id: D.templates.depot,
      version: 1,
      organizationId: f.orgA,
      groupId: f.groups.depot,
      name: 'Contrôle dépôt',
      description: 'Contrôle du dépôt Nord',
      vehicleType: 'VAN',
      signatureRequired: false,
      defaultLanguage: 'FR',
      translations: { EN: { name: 'Depot check' } },
      createdAt: D.start,
      items: [
        {
          id: D.items.depot(1),
          orderPosition: 1,
          category: 'DOCUMENTS',
          name: 'Papiers du véhicule',
          translations: { EN: { name: 'Vehicle papers' } },
        },
        {
          id: D.items.depot(2),
          orderPosition: 2,
          category: 'CARGO',
          name: 'Arrimage',
          commentOnSuccess: true,
        },
      ],
    },
    {
      id: D.templates.globex,
      version: 1,
      organizationId: f.orgB,
      groupId: f.groups.globex,
      name: 'Globex check',
      vehicleType: 'CAR',
      signatureRequired: false,
      defaultLanguage: 'EN',
      createdAt: D.start,
      items: [{ id: D.items.globex(1), orderPosition: 1, category: 'EXTERIOR', name: 'Body' }],
    },
  ];
}

export async function fixtureImages() {
  const png = await sharp({
    create: { width: 8, height: 8, channels: 3, background: { r: 200, g: 30, b: 30 } },
  })
    .png()
    .toBuffer();
  const jpeg = await sharp({
    create: { width: 8, height: 8, channels: 3, background: { r: 30, g: 30, b: 200 } },
  })
    .jpeg()
    .toBuffer();
  return { png: new Uint8Array(png), jpeg: new Uint8Array(jpeg) };
}

const hours = (n: number) => new Date(D.start.getTime() + n * 3_600_000);

export async function loadDvirFixture(knex: Knex, f: any, config: DvirConfig): Promise<void> {
  const templates = fixtureTemplates(f);
  const images = await fixtureImages();
  const byVersion = (id: string, version: number) =>
    templates.find((t) => t.id === id && t.version === version);
  let n = 0;
  const newId = () => uuid(++n, '7dd00000');
  const acmeAnswers = (report: number, version: number, results: string[], photo = false) =>
    results.map((result, i) => ({
      id: D.answer(report, i + 1),
      itemId: D.items.acme(version, i + 1),
      result,
      comment: result === 'DEFECT' ? `Problem ${i + 1}` : null,
      defectId: result === 'DEFECT' ? D.defect(report) : undefined,
      photos:
        result === 'DEFECT' && (photo || i === 1)
          ? [
              {
                id: D.attachment(report * 10 + i),
                kind: 'PHOTO',
                filename: `defect-${report}.jpg`,
                bytes: images.jpeg,
              },
            ]
          : [],
    }));
  const base = (report: number, vehicle: string, group: string, driver: string, at: Date) => ({
    id: (D.reports as any)[`r${report}`],
    organizationId: f.orgA,
    vehicleId: vehicle,
    groupId: group,
    driverId: driver,
    templateId: D.templates.acme,
    inspectionType: 'PRE_TRIP',
    workflowStatus: 'SUBMITTED',
    startedAt: at,
    completedAt: new Date(at.getTime() + 600_000),
    driverSignatureDate: new Date(at.getTime() + 600_000),
    odometer: 12000 + report,
    fuelLevel: 50 + report,
    locationLat: 48.85,
    locationLng: 2.35,
    locationAddress: '1 rue de Rivoli, Paris',
  });
  const inputs: ReportInput[] = [
    {
      ...base(1, f.vehicles.depot[0], f.groups.depot, f.drivers.anna, hours(0)),
      templateVersion: 1,
      answers: acmeAnswers(1, 1, ['OK', 'DEFECT', 'OK', 'OK']),
      attachments: [
        { id: D.attachment(1), kind: 'WALKAROUND', filename: 'walkaround.png', bytes: images.png },
        { id: D.attachment(2), kind: 'SIGNATURE', filename: 'signature.png', bytes: images.png },
        { id: D.attachment(3), kind: 'DOCUMENT', filename: 'missing.pdf' },
      ],
    },
    {
      ...base(2, f.vehicles.depot[0], f.groups.depot, f.drivers.anna, hours(24)),
      templateVersion: 2,
      inspectionType: 'POST_TRIP',
      answers: acmeAnswers(2, 2, ['OK', 'OK', 'OK', 'NOT_APPLICABLE']),
    },
    {
      ...base(3, f.vehicles.depot[0], f.groups.depot, f.drivers.bruno, hours(48)),
      templateVersion: 2,
      workflowStatus: 'IN_PROGRESS',
      completedAt: null,
      driverSignatureDate: null,
      answers: acmeAnswers(3, 2, ['DEFECT'], true),
    },
    {
      ...base(4, f.vehicles.south[0], f.groups.south, f.drivers.carla, hours(30)),
      templateVersion: 2,
      answers: acmeAnswers(4, 2, ['DEFECT', 'OK', 'OK', 'OK'], true),
    },
    {
      ...base(5, f.vehicles.depot[1], f.groups.depot, f.drivers.bruno, hours(26)),
      templateVersion: 2,
      inspectionType: 'PERIODIC',
      answers: acmeAnswers(5, 2, ['OK', 'OK', 'DEFECT', 'OK'], true),
    },
    {
      ...base(6, f.vehicles.globex, f.groups.globex, f.drivers.greta, hours(5)),
      organizationId: f.orgB,
      templateId: D.templates.globex,
      templateVersion: 1,
      answers: [{ id: D.answer(6, 1), itemId: D.items.globex(1), result: 'OK' }],
    },
    {
      ...base(7, f.vehicles.depot[2], f.groups.depot, f.drivers.anna, hours(3)),
      templateId: D.templates.depot,
      templateVersion: 1,
      driverSignatureDate: null,
      answers: [
        {
          id: D.answer(7, 1),
          itemId: D.items.depot(1),
          result: 'DEFECT',
          comment: 'Carte grise absente',
          defectId: D.defect(7),
        },
        { id: D.answer(7, 2), itemId: D.items.depot(2), result: 'OK', comment: 'Sangles OK' },
      ],
    },
  ];
  const built = inputs.map((input, i) => {
    const out = buildReport(
      input,
      byVersion(input.templateId, input.templateVersion),
      `reports[${i}]`,
      newId,
    );
    if (!out.rows) throw new Error(`fixture report ${i}: ${out.problems.join('; ')}`);
    return out.rows;
  });
  const defectOf = (report: number) =>
    built.flatMap((b) => b.defects).find((d) => d.id === D.defect(report))!;
  const problems = [
    ...resolveDefect(defectOf(1), { by: 'LATER_REPORT', reportId: D.reports.r2, at: hours(24.2) }, 'r1'),
    ...resolveDefect(defectOf(7), { by: 'MECHANIC', mechanicName: 'Garage Martin', at: hours(10) }, 'r7'),
  ];
  if (problems.length) throw new Error(problems.join('; '));
  defectOf(4).status = 'IN_REPAIR';
  const files = fileServiceFor(config);
  await knex.transaction(async (trx) => {
    await writeTemplates(trx, templates);
    await writeReports(trx, files, built);
  });
}

export interface DvirHarness extends SubgraphHarness {
  config: DvirConfig;
  /** The signing clock (ms); tests move it to expire URLs. */
  clock: { now: number };
}

/** dvir on a throwaway database with fleet-core's fixture and this one, files in a temp folder. */
export async function startDvirHarness(
  label: string,
  env: Record<string, string> = {},
): Promise<DvirHarness> {
  const clock = { now: Date.parse('2026-03-12T12:00:00.000Z') };
  const fullEnv = {
    DVIR_FILES_DIR: scratchDir('dvir-files'),
    DVIR_PUBLIC_URL: 'http://dvir.test',
    PAGING_SECRET: 'dvir-test-paging-secret-0123456789',
    ...env,
  };
  let config: DvirConfig | undefined;
  const h = await startSubgraphHarness(
    {
      ...manifest,
      loadConfig: (e) => (config = { ...loadDvirConfig(e), clock: () => clock.now }),
    },
    {
      label,
      env: fullEnv,
      seed: async (knex, facts) => loadDvirFixture(knex, facts['fleet-core'], config!),
    },
  );
  return Object.assign(h, { config: config!, clock });
}

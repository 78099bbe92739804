/**
 * Data in: the demo seed (history consistent with the odometer, every criticality present) and
 * the JSON importers (every problem by path, nothing written on error).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSubgraphHarness, type SubgraphHarness } from '@fleetgraph/subgraph-kit/testing';
import manifest from './manifest';
import { CATALOG, seedMaintenance, simulateHistory } from './demo/seed';
import { upcomingForVehicle, type ServiceSummary, type TemplateRule } from './domain/upcoming';
import { DEFAULT_THRESHOLDS } from '../migrations/20261123_001_maintenance';

const NOW = new Date('2026-11-20T00:00:00Z');
let h: SubgraphHarness;
let F: any;
const dir = mkdtempSync(join(tmpdir(), 'maintenance-import-'));
before(async () => {
  h = await startSubgraphHarness(manifest, {
    label: 'maintenance-data-in',
    env: { MAINTENANCE_NOW: NOW.toISOString() },
  });
  F = h.facts['fleet-core'];
});
after(async () => {
  rmSync(dir, { recursive: true, force: true });
  await h?.close();
});

const templates: TemplateRule[] = CATALOG.map((t) => ({
  ...t,
  organizationId: null,
  fromExternalService: false,
}));
const thresholds = DEFAULT_THRESHOLDS.map((t) => ({
  id: t.id,
  organizationId: null,
  code: t.code,
  criticality: t.criticality,
  remainingDistance: t.remaining_distance_km,
  remainingDuration: t.remaining_days,
  description: t.description,
}));

test('simulated history is consistent with the odometer and gives every criticality', () => {
  const types = ['CAR', 'VAN', 'HEAVY_TRUCK', 'BUS', 'LIGHT_TRUCK'];
  const fuels = ['DIESEL', 'GASOLINE', 'ELECTRIC', 'PLUGIN_HYBRID'];
  const levels = new Set<string>();
  for (let i = 0; i < 60; i++) {
    const vehicle = {
      id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      organizationId: '00000000-0000-4000-8000-00000000aaaa',
      vehicleType: types[i % types.length]!,
      fuelType: fuels[i % fuels.length]!,
      modelYear: 2016 + (i % 10),
      createdAt: new Date('2024-06-01T00:00:00Z'),
      odometerKm: 8000 + i * 4100,
    };
    const rows = simulateHistory(vehicle, templates, NOW);
    const byTemplate = new Map<string, typeof rows>();
    for (const r of rows) {
      assert.ok(r.mileage_km <= vehicle.odometerKm, 'no service above the odometer');
      assert.ok(r.done_at < NOW && r.done_at.getTime() >= NOW.getTime() - 5 * 365 * 86_400_000 - 1);
      byTemplate.set(r.template_id, [...(byTemplate.get(r.template_id) ?? []), r]);
    }
    const summaries: ServiceSummary[] = [];
    for (const [templateId, list] of byTemplate) {
      for (let k = 1; k < list.length; k++) {
        assert.ok(list[k]!.done_at > list[k - 1]!.done_at);
        assert.ok(list[k]!.mileage_km >= list[k - 1]!.mileage_km);
      }
      const last = list.at(-1)!;
      summaries.push({
        templateId,
        count: list.length,
        lastMileageKm: last.mileage_km,
        lastDoneAtMs: last.done_at.getTime(),
        maxMileageKm: Math.max(...list.map((r) => r.mileage_km)),
      });
    }
    const facts = { ...vehicle, recentKm: (vehicle.odometerKm / 3000) * 30 };
    for (const item of upcomingForVehicle(facts, templates, summaries, thresholds, NOW))
      levels.add(item.criticality!.code);
    // electric vehicles get no oil change
    if (vehicle.fuelType === 'ELECTRIC') assert.ok(!rows.some((r) => r.template_id === CATALOG[0]!.id));
  }
  assert.deepEqual([...levels].sort(), ['DUE_SOON', 'OVERDUE', 'PLANNED']);
});

test('the demo hook seeds the catalog and history for the fixture vehicles, deterministically', async () => {
  const logs: string[] = [];
  const context = { log: (l: string) => logs.push(l), progress: false, now: NOW, scale: 1 };
  assert.equal(await manifest.demoData!.isSeeded(h.knex), false);
  await seedMaintenance(h.knex, context);
  assert.equal(await manifest.demoData!.isSeeded(h.knex), true);
  const rows = await h
    .knex('maintenance.history')
    .orderBy('id')
    .select('id', 'vehicle_id', 'mileage_km', 'done_at');
  assert.ok(rows.length > 20, `${rows.length} records`);
  const vehicles = new Set(rows.map((r: any) => r.vehicle_id));
  assert.ok(vehicles.has(F.vehicles.depot[0]) && vehicles.has(F.vehicles.globex));
  assert.match(logs.join('\n'), /service records/);
  const res = await h.as(F.alice)(
    `{ maintenanceUpcomings(pageSize: 500) { count list { criticality { code } } } }`,
  );
  assert.equal(res.errors, undefined);
  assert.ok(res.data.maintenanceUpcomings.count > 0);
  // determinism: same input, same rows
  await h.knex('maintenance.history').delete();
  await h.knex('maintenance.templates').delete();
  await seedMaintenance(h.knex, context);
  const again = await h
    .knex('maintenance.history')
    .orderBy('id')
    .select('id', 'vehicle_id', 'mileage_km', 'done_at');
  assert.deepEqual(again, rows);
});

function file(name: string, data: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof data === 'string' ? data : JSON.stringify(data));
  return path;
}

const run = (kind: string, path: string) =>
  manifest.importers![kind]!.run(h.knex, path, { log: () => {}, now: NOW, options: {} });

test('templates importer: every problem by path, nothing written; then a clean import', async () => {
  const before = await h.knex('maintenance.templates').count('* as n').first();
  const bad = await run(
    'templates',
    file('bad-templates.json', {
      templates: [
        { description: 'Ok', system: 'ENGINE', interval: { distanceKm: 10000 } },
        { id: 'nope', description: '', system: 'WINGS', interval: {} },
        {
          organizationId: '00000000-0000-4000-8000-000000000999',
          description: 'x',
          system: 'TIRES',
          interval: { months: -1 },
          vehicleTypes: [],
        },
      ],
    }),
  );
  assert.equal(bad.ok, false);
  assert.deepEqual(!bad.ok && bad.problems, [
    'templates[1].id: expected a uuid',
    'templates[1].description: expected a text of 1 to 500 characters',
    `templates[1].system: expected one of ENGINE, BRAKES, TIRES, TRANSMISSION, COOLING, ELECTRICAL, FILTERS, BODY, INSPECTION, SUSPENSION, STEERING, EXHAUST, HVAC, FLUIDS, HIGH_VOLTAGE, SAFETY, OTHER (got "WINGS")`,
    'templates[1].interval: set at least one of distanceKm, months, days',
    'templates[2].interval.months: expected a positive integer',
    'templates[2].vehicleTypes: expected a non-empty array of names, or null for all',
    'templates[2].organizationId: unknown organization 00000000-0000-4000-8000-000000000999',
  ]);
  assert.deepEqual(await h.knex('maintenance.templates').count('* as n').first(), before);
  const notJson = await run('templates', file('broken.json', '{"templates": ['));
  assert.equal(notJson.ok, false);
  assert.match(!notJson.ok ? notJson.problems[0]! : '', /^\$: not a readable JSON file/);
  const good = await run(
    'templates',
    file('templates.json', {
      templates: [
        {
          id: 'b7100000-0000-4000-8000-000000000001',
          organizationId: F.orgA,
          description: 'Reefer unit service',
          system: 'HVAC',
          externalId: 'FLEETIO-77',
          interval: { months: 6, days: 15 },
          vehicleTypes: ['VAN'],
        },
      ],
    }),
  );
  assert.deepEqual(good, { ok: true, summary: { templates: 1 } });
  const t = await h.as(F.alice)(
    `{ maintenanceTemplate(id: "b7100000-0000-4000-8000-000000000001") { fromExternalService interval { months days } } }`,
  );
  assert.deepEqual(t.data.maintenanceTemplate, {
    fromExternalService: true,
    interval: { months: 6, days: 15 },
  });
  const again = await run(
    'templates',
    file(
      'templates.json',
      JSON.parse(
        JSON.stringify({
          templates: [
            {
              id: 'b7100000-0000-4000-8000-000000000001',
              description: 'x',
              system: 'HVAC',
              interval: { days: 1 },
            },
          ],
        }),
      ),
    ),
  );
  assert.equal(again.ok, false);
  assert.match(!again.ok ? again.problems[0]! : '', /templates\[0\]\.id: a template .* already exists/);
});

test('thresholds importer replaces the organization set; problems by path', async () => {
  const bad = await run(
    'thresholds',
    file('bad-thresholds.json', {
      organizationId: F.orgA,
      thresholds: [
        { code: 'late', criticality: 12, description: 'x' },
        { code: 'SOON', criticality: 2, remainingDistance: 'far', description: '' },
        { code: 'SOON', criticality: 2, description: 'y' },
      ],
    }),
  );
  assert.deepEqual(!bad.ok && bad.problems, [
    'thresholds[0].code: expected an upper-case code like DUE_SOON',
    'thresholds[0].criticality: expected an integer from 1 to 9',
    'thresholds[1].remainingDistance: expected an integer or null',
    'thresholds[1].description: expected a text of 1 to 500 characters',
    'thresholds[2].code: SOON appears twice',
    'thresholds[2].criticality: 2 appears twice',
  ]);
  const good = await run(
    'thresholds',
    file('thresholds.json', {
      organizationId: F.orgA,
      thresholds: [
        { code: 'LATE', criticality: 4, remainingDistance: 0, remainingDuration: 0, description: 'Late' },
        { code: 'SOON', criticality: 2, remainingDistance: 2500, remainingDuration: 30, description: 'Soon' },
        { code: 'LATER', criticality: 1, description: 'Later' },
      ],
    }),
  );
  assert.deepEqual(good, { ok: true, summary: { thresholds: 3 } });
  const res = await h.as(F.alice)(
    `{ maintenanceCriticalityThreshold { code criticality } maintenanceCriticalityThresholds { count list { code inForce } } }`,
  );
  assert.deepEqual(res.data.maintenanceCriticalityThreshold, { code: 'LATE', criticality: 4 });
  assert.equal(res.data.maintenanceCriticalityThresholds.count, 6);
  const carol = await h.as(F.carol)(`{ maintenanceCriticalityThreshold { code } }`);
  assert.deepEqual(carol.data.maintenanceCriticalityThreshold, { code: 'OVERDUE' });
  await h.knex('maintenance.criticality_thresholds').where('organization_id', F.orgA).delete();
});

test('history importer: vehicles by id, VIN or plate; every problem by path, nothing written', async () => {
  const count = async () => Number((await h.knex('maintenance.history').count('* as n').first())!.n);
  const before = await count();
  const oil = CATALOG[0]!.id;
  const vin = 'VF1MA000000000002';
  const bad = await run(
    'history',
    file('bad-history.json', {
      organizationId: F.orgA,
      history: [
        { vehicle: F.vehicles.depot[0], template: oil, mileage: 9000, date: '2026-10-01T00:00:00Z' },
        { vehicle: 'NO-SUCH-VAN', template: oil, mileage: -5, date: 'yesterday' },
        {
          vehicle: F.vehicles.globex,
          template: 'b7100000-0000-4000-8000-0000000000ff',
          mileage: 1,
          date: '2026-10-01',
        },
      ],
    }),
  );
  assert.deepEqual(!bad.ok && bad.problems, [
    'history[1].vehicle: no vehicle of this organization with the id, VIN or plate "NO-SUCH-VAN"',
    'history[1].mileage: expected a whole number of km (0 or more)',
    'history[1].date: expected an ISO 8601 date-time',
    `history[2].vehicle: no vehicle of this organization with the id, VIN or plate "${F.vehicles.globex}"`,
    'history[2].template: unknown template "b7100000-0000-4000-8000-0000000000ff" (a global or this organization\'s template id)',
  ]);
  assert.equal(await count(), before);
  const good = await run(
    'history',
    file('history.json', {
      organizationId: F.orgA,
      history: [
        {
          id: 'b8100000-0000-4000-8000-000000000001',
          vehicle: vin,
          template: oil,
          mileage: 19990,
          date: '2026-11-01T00:00:00Z',
          notes: 'Imported',
        },
        { vehicle: 'AB-110-CD', template: oil, mileage: 99000, date: '2026-09-01T00:00:00Z' },
      ],
    }),
  );
  assert.deepEqual(good, { ok: true, summary: { history: 2 } });
  const r = await h.as(F.alice)(
    `{ maintenanceHistorical(id: "b8100000-0000-4000-8000-000000000001") { mileage notes fromExternalService vehicle { id } } }`,
  );
  assert.deepEqual(r.data.maintenanceHistorical, {
    mileage: 19990,
    notes: 'Imported',
    fromExternalService: true,
    vehicle: { id: F.vehicles.depot[1] },
  });
});

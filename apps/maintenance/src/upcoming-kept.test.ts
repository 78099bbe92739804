/**
 * The kept upcoming work answers what computing every vehicle's facts answers (the computation
 * every read made before, kept as reader.computeUpcoming): on the fixture plus a generated fleet
 * of 200 vehicles with demo history, varied odometers, idle and busy vehicles, read at several
 * instants (the same day as the refresh, hours later, days later), for a top-level account (index
 * walks) and a subtree account (its set), every sort, filters, the default thresholds and an
 * organization's own levels without a base level, paged in small pages; and again after a
 * recorded service, an odometer change and a refresh pass.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CursorCodec } from '@fleetgraph/paging';
import { startSubgraphHarness, type SubgraphHarness } from '@fleetgraph/subgraph-kit/testing';
import { ListScopeCache } from '@fleetgraph/visibility';
import manifest from './manifest';
import { createReader } from './reader';
import { resolvers } from './resolvers/index';
import { pageOfItems, type UpcomingSort } from './data/upcoming-page';
import { refreshUpcoming } from './data/upcoming-store';
import { walkSettings } from './data/upcoming-read';
import { seedMaintenance } from './demo/seed';
import type { UpcomingItem } from './domain/upcoming';
import { NOW, seedMaintenanceFixture } from './testing/fixture';

let h: SubgraphHarness;
let F: any;
const codec = new CursorCodec('kept-upcoming-test-secret-0123456789');
const listScopes = new ListScopeCache({ walkFromGroups: 1 });
const GENERATED = 200;
const vid = (n: number) => `e1000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

before(async () => {
  h = await startSubgraphHarness(manifest, {
    label: 'maintenance_kept_upcoming',
    env: { MAINTENANCE_NOW: NOW, MAINTENANCE_UPCOMING_REFRESH_SECONDS: '0' },
    seed: async (knex, facts) => {
      const fc = facts['fleet-core'];
      await seedMaintenanceFixture(knex, fc);
      const groups = [fc.groups.hq, fc.groups.north, fc.groups.depot, fc.groups.south];
      const types = ['CAR', 'VAN', 'LIGHT_TRUCK', 'HEAVY_TRUCK', 'BUS'];
      const fuels = ['DIESEL', 'GASOLINE', 'ELECTRIC', 'HYBRID', 'LPG'];
      const vehicles = Array.from({ length: GENERATED }, (_, i) => ({
        id: vid(i + 1),
        organization_id: fc.orgA,
        vin: `VF1GEN${String(i).padStart(11, '0')}`,
        plate: `GEN-${i}`,
        model_year: 2015 + (i % 11),
        vehicle_type: types[i % types.length],
        fuel_type: fuels[(i * 7) % fuels.length],
        // every 13th without odometer; the rest spread to 300,000 km
        odometer_km: i % 13 === 0 ? null : (i * 7919) % 300_000,
        created_at: new Date(Date.parse(NOW) - (30 + ((i * 37) % 2500)) * 86_400_000),
      }));
      await knex('fleet.vehicles').insert(vehicles);
      await knex('fleet.group_vehicles').insert(
        vehicles.map((v, i) => ({ group_id: groups[i % groups.length], vehicle_id: v.id })),
      );
      // trips over the 40 days before now for two vehicles in three (the rest idle)
      await knex.raw(
        `insert into fleet.trips (id, device_id, vehicle_id, started_at, ended_at, start_latitude, start_longitude,
                                  end_latitude, end_longitude, distance_m, max_speed_kmh)
         select gen_random_uuid(), ?, ('e1000000-0000-4000-8000-' || lpad(to_hex(n), 12, '0'))::uuid,
                e - interval '30 minutes', e, 48.1, 11.5, 48.2, 11.6, 1000 + (n * 977 + d * 131) % 90000, 90
           from generate_series(1, ?) n, generate_series(0, 39) d,
                lateral (select ?::timestamptz - interval '1 day' * d - interval '1 hour' * (n % 20) as e) x
          where n % 3 <> 0`,
        [fc.depotDevices[0], GENERATED, NOW],
      );
      await seedMaintenance(knex, { log: () => {}, progress: false, now: new Date(NOW), scale: 1 });
    },
  });
  F = h.facts['fleet-core'];
});
after(() => h?.close());

const SHOWN = (i: UpcomingItem) => ({
  id: i.id,
  vehicleId: i.vehicleId,
  template: i.template.id,
  cycle: i.cycle,
  baseMileageKm: i.baseMileageKm,
  baseDate: i.baseDate.toISOString(),
  mileageDeadline: i.mileageDeadline,
  dateDeadline: i.dateDeadline?.toISOString() ?? null,
  currentMileageKm: i.currentMileageKm,
  odometerSource: i.odometerSource,
  averageDailyKm: i.averageDailyKm,
  remainingDistanceToDrive: i.remainingDistanceToDrive,
  remainingDaysToDrive: i.remainingDaysToDrive,
  criticality: i.criticality?.id ?? null,
});

type Args = {
  sort: UpcomingSort;
  minCriticality?: number;
  systems?: string[];
  groupIds?: string[];
  pageSize?: number;
  pageId?: string | null;
};

const loadersAt = (user: { uid: string }, now: Date) =>
  createReader({ knex: h.knex, codec, clock: () => now, listScopes }, {
    ...user,
    email: 'x@example.test',
    fullName: 'x',
    scopes: [],
    jti: 'j',
    exp: 0,
  } as never);

/** The old computation: every visible vehicle's facts, every item, ordered and filtered in memory. */
async function oracle(user: { uid: string }, now: Date, args: Args) {
  const reader = loadersAt(user, now);
  const wanted = args.systems ? (t: { system: string }) => args.systems!.includes(t.system) : undefined;
  const items = (await reader.computeUpcoming({ groupIds: args.groupIds ?? null }, wanted)).filter(
    (i) => args.minCriticality == null || (i.criticality?.criticality ?? 0) >= args.minCriticality,
  );
  const page = pageOfItems(codec, 'o', items, args.sort, { pageSize: 100_000 }, {});
  return { list: page.list.map(SHOWN), count: items.length };
}

/** The kept work through the root resolver, page after page. */
async function kept(user: { uid: string }, now: Date, args: Args, pageSize: number) {
  const list: ReturnType<typeof SHOWN>[] = [];
  let pageId: string | null = null;
  let count: number | null = null;
  const query = (resolvers as any).Query.maintenanceUpcomings;
  do {
    const reader = loadersAt(user, now);
    const page: any = await query(null, { ...args, pageSize, pageId }, { reader });
    list.push(...page.list.map(SHOWN));
    if (count === null) count = typeof page.count === 'function' ? await page.count() : page.count;
    pageId = page.next;
  } while (pageId);
  return { list, count };
}

async function compareAll(label: string, instants: Date[]) {
  let refreshedFor = '';
  const cases: Args[] = [
    { sort: 'URGENCY' },
    { sort: 'URGENCY', minCriticality: 2 },
    { sort: 'URGENCY', systems: ['BRAKES', 'TIRES'] },
    { sort: 'DATE_DEADLINE' },
    { sort: 'REMAINING_DISTANCE', minCriticality: 2 },
    { sort: 'URGENCY', groupIds: [F.groups.north] },
  ];
  for (const now of instants) {
    // A new UTC day moves the 30-day window: every other day, the timer's pass takes it into
    // account before the reads; on the others, the first read does.
    const dayOf = now.toISOString().slice(0, 10);
    if (dayOf !== refreshedFor && instants.indexOf(now) % 2 === 0) await refreshUpcoming(h.knex, now, 'all');
    refreshedFor = dayOf;
    for (const user of [F.alice, F.bob])
      for (const args of cases) {
        const expected = await oracle(user, now, args);
        assert.ok(
          expected.list.length > 0 || args.minCriticality,
          `control: ${JSON.stringify(args)} has items`,
        );
        const got = await kept(user, now, args, 61);
        const what = `${label} ${now.toISOString()} ${user.email} ${JSON.stringify(args)}`;
        assert.equal(got.count, expected.count, what);
        assert.deepEqual(got.list, expected.list, what);
      }
  }
}

const at = (hours: number) => new Date(Date.parse(NOW) + hours * 3_600_000);

test('a top-level account walks the kept work; a subtree account reads its set', async () => {
  assert.equal((await loadersAt(F.alice, at(0)).listScope()).shape, 'per-row');
  assert.equal((await loadersAt(F.bob, at(0)).listScope()).shape, 'set');
});

test('kept work = computed work: default thresholds, several instants', async () => {
  await compareAll('defaults', [at(7.5), at(24 * 40)]);
});

test('kept work = computed work: calendar days of many items read in (km, id) order', async () => {
  const kept = walkSettings.tieRows;
  walkSettings.tieRows = 2;
  try {
    await compareAll('ties by km', [at(24 * 5 + 2)]);
  } finally {
    walkSettings.tieRows = kept;
  }
});

test("kept work = computed work: an organization's own levels, without a base level", async () => {
  await h.knex('maintenance.criticality_thresholds').insert(
    [
      [5, 0, 0],
      [4, 500, null],
      [3, null, 30],
      [2, 3000, 90],
    ].map(([criticality, km, days], i) => ({
      id: `b9100000-0000-4000-8000-00000000000${i}`,
      organization_id: F.orgA,
      code: `L${criticality}`,
      criticality,
      remaining_distance_km: km,
      remaining_days: days,
      description: 'test level',
    })),
  );
  try {
    await compareAll('own levels', [at(24 * 9 + 13)]);
  } finally {
    await h.knex('maintenance.criticality_thresholds').where('organization_id', F.orgA).delete();
  }
});

test('kept work follows a recorded service at once, and fleet-core facts after a refresh pass', async () => {
  // brake fluid: every vehicle type and fuel
  const template = await h
    .knex('maintenance.templates')
    .where('id', 'd7000000-0000-4000-8000-000000000004')
    .first();
  const before = await h
    .knex('maintenance.upcoming_work')
    .where({ vehicle_id: vid(2), template_id: template.id })
    .first();
  await h.knex('maintenance.history').insert({
    id: 'b8200000-0000-4000-8000-000000000001',
    vehicle_id: vid(2),
    template_id: template.id,
    mileage_km: 1,
    done_at: new Date(Date.parse(NOW) - 86_400_000),
  });
  await h.knex('fleet.vehicles').where('id', vid(5)).update({ odometer_km: 999_999 });
  const now = at(1);
  await refreshUpcoming(h.knex, now, 'all');
  const [row] = await h
    .knex('maintenance.upcoming_work')
    .where({ vehicle_id: vid(5) })
    .limit(1);
  assert.equal(Number(row.current_mileage_km), 999_999);
  // the pass also takes the marks of maintenance's own writes
  const after = await h
    .knex('maintenance.upcoming_work')
    .where({ vehicle_id: vid(2), template_id: template.id })
    .first();
  assert.equal(after.cycle, before.cycle + 1);
  await compareAll('after writes', [now]);
});

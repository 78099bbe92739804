import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  addIntervalMs,
  DAY_MS,
  computeUpcoming,
  criticalityOf,
  currentMileage,
  decodeUpcomingId,
  encodeUpcomingId,
  upcomingForVehicle,
  type TemplateRule,
  type Threshold,
  type VehicleFacts,
} from './upcoming';

const NOW = new Date('2026-03-31T00:00:00Z');
const T = (id: number, level: number, km: number | null, days: number | null): Threshold => ({
  id: `00000000-0000-4000-8000-00000000000${id}`,
  organizationId: null,
  code: `L${level}`,
  criticality: level,
  remainingDistance: km,
  remainingDuration: days,
  description: '',
});
const DEFAULTS = [T(1, 1, null, null), T(2, 2, 1000, 14), T(3, 3, 0, 0)];
const template = (over: Partial<TemplateRule>): TemplateRule => ({
  id: 'aaaaaaaa-0000-4000-8000-000000000001',
  organizationId: null,
  description: 'Oil',
  system: 'ENGINE',
  fromExternalService: false,
  intervalKm: 15000,
  intervalMonths: 12,
  intervalDays: null,
  vehicleTypes: null,
  fuelTypes: null,
  ...over,
});
const vehicle = (over: Partial<VehicleFacts>): VehicleFacts => ({
  id: 'bbbbbbbb-0000-4000-8000-000000000001',
  organizationId: 'cccccccc-0000-4000-8000-000000000001',
  vehicleType: 'VAN',
  fuelType: 'DIESEL',
  createdAt: new Date('2025-01-01T00:00:00Z'),
  odometerKm: 20000,
  recentKm: 1500,
  ...over,
});

test('addIntervalMs clamps to the last day of the month and adds days after months', () => {
  assert.equal(
    new Date(addIntervalMs(Date.parse('2025-01-31T10:00:00Z'), 1, null)).toISOString(),
    '2025-02-28T10:00:00.000Z',
  );
  assert.equal(
    new Date(addIntervalMs(Date.parse('2024-02-29T00:00:00Z'), 12, null)).toISOString(),
    '2025-02-28T00:00:00.000Z',
  );
  assert.equal(
    new Date(addIntervalMs(Date.parse('2025-11-15T00:00:00Z'), 3, 10)).toISOString(),
    '2026-02-25T00:00:00.000Z',
  );
  assert.equal(
    new Date(addIntervalMs(Date.parse('2025-11-15T00:00:00Z'), null, 30)).toISOString(),
    '2025-12-15T00:00:00.000Z',
  );
});

/** The calendar arithmetic addIntervalMs replaces: Date's own month setters, in UTC. */
function referenceAddInterval(ms: number, months: number | null, days: number | null): number {
  const date = new Date(ms);
  let result = ms;
  if (months) {
    const y = date.getUTCFullYear();
    const m = date.getUTCMonth() + months;
    const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
    result = Date.UTC(
      y,
      m,
      Math.min(date.getUTCDate(), lastDay),
      date.getUTCHours(),
      date.getUTCMinutes(),
      date.getUTCSeconds(),
      date.getUTCMilliseconds(),
    );
  }
  return days ? result + days * DAY_MS : result;
}

test('addIntervalMs agrees with Date arithmetic: month ends, leap years, before 1970, any time of day', () => {
  let seed = 11;
  const random = (n: number) => (seed = (seed * 48271) % 2147483647) % n;
  const starts = [Date.UTC(1969, 11, 31, 23, 59, 59, 999), Date.UTC(1900, 1, 28), Date.UTC(2000, 1, 29, 12)];
  for (let i = 0; i < 3000; i++)
    starts.push(
      Date.UTC(
        1950 + random(150),
        random(12),
        1 + random(31),
        random(24),
        random(60),
        random(60),
        random(1000),
      ),
    );
  for (const ms of starts)
    for (const months of [null, 1, 2, 6, 11, 12, 13, 24, 120 + random(120)])
      for (const days of [null, 1, 30]) {
        const at = new Date(ms).toISOString();
        assert.equal(
          addIntervalMs(ms, months, days),
          referenceAddInterval(ms, months, days),
          `${at} +${months}m +${days}d`,
        );
      }
});

test('current mileage: the reading, floored by the highest service mileage', () => {
  const s = (km: number) => ({
    templateId: 'x',
    count: 1,
    lastMileageKm: km,
    lastDoneAtMs: NOW.getTime(),
    maxMileageKm: km,
  });
  assert.deepEqual(currentMileage(1000, [s(900)]), { km: 1000, source: 'READING' });
  assert.deepEqual(currentMileage(1000, [s(1200)]), { km: 1200, source: 'SERVICE_RECORD' });
  assert.deepEqual(currentMileage(null, [s(700)]), { km: 700, source: 'SERVICE_RECORD' });
  assert.deepEqual(currentMileage(null, []), { km: null, source: null });
});

test('criticality: the most critical threshold reached; a threshold without bounds matches all', () => {
  assert.equal(criticalityOf(DEFAULTS, -5, 100)?.criticality, 3);
  assert.equal(criticalityOf(DEFAULTS, 5000, 0)?.criticality, 3);
  assert.equal(criticalityOf(DEFAULTS, 1000, 100)?.criticality, 2);
  assert.equal(criticalityOf(DEFAULTS, 5000, 14)?.criticality, 2);
  assert.equal(criticalityOf(DEFAULTS, null, null)?.criticality, 1);
  assert.equal(criticalityOf([T(3, 3, 0, 0)], 10, 10), null);
});

test('km first: the remaining distance at the average daily distance comes before the date', () => {
  // last oil change 2025-12-01 at 10,000 km; now 20,000 km, 50 km/day -> 5,000 km = 100 days; date in 245 days
  const item = computeUpcoming(
    vehicle({}),
    template({}),
    [
      {
        templateId: template({}).id,
        count: 2,
        lastMileageKm: 10000,
        lastDoneAtMs: Date.parse('2025-12-01T00:00:00Z'),
        maxMileageKm: 10000,
      },
    ],
    DEFAULTS,
    NOW,
  );
  assert.equal(item.mileageDeadline, 25000);
  assert.equal(item.remainingDistanceToDrive, 5000);
  assert.equal(item.dateDeadline?.toISOString(), '2026-12-01T00:00:00.000Z');
  assert.equal(item.remainingCalendarDays, 245);
  assert.equal(item.remainingDaysByDistance, 100);
  assert.equal(item.remainingDaysToDrive, 100);
  assert.equal(item.cycle, 2);
  assert.equal(item.criticality?.code, 'L1');
});

test('no odometer: distance unknown, the calendar decides; idle: no distance estimate', () => {
  const noOdo = computeUpcoming(vehicle({ odometerKm: null, recentKm: 0 }), template({}), [], DEFAULTS, NOW);
  assert.equal(noOdo.mileageDeadline, 15000);
  assert.equal(noOdo.remainingDistanceToDrive, null);
  assert.equal(noOdo.currentMileageKm, null);
  assert.equal(noOdo.dateDeadline?.toISOString(), '2026-01-01T00:00:00.000Z');
  assert.equal(noOdo.remainingDaysToDrive, -89);
  assert.equal(noOdo.criticality?.code, 'L3');
  const idle = computeUpcoming(
    vehicle({ odometerKm: 1000, recentKm: 0 }),
    template({ intervalMonths: null, intervalDays: null }),
    [],
    DEFAULTS,
    NOW,
  );
  assert.equal(idle.remainingDistanceToDrive, 14000);
  assert.equal(idle.remainingDaysToDrive, null);
  assert.equal(idle.averageDailyKm, 0);
  assert.equal(idle.criticality?.code, 'L1');
});

test('templates apply by vehicle type and fuel type; ids are stable and round-trip', () => {
  const items = upcomingForVehicle(
    vehicle({ fuelType: 'ELECTRIC' }),
    [
      template({}),
      template({ id: 'aaaaaaaa-0000-4000-8000-000000000002', fuelTypes: ['DIESEL'] }),
      template({ id: 'aaaaaaaa-0000-4000-8000-000000000003', vehicleTypes: ['BUS'] }),
    ],
    [],
    DEFAULTS,
    NOW,
  );
  assert.equal(items.length, 1);
  const id = items[0]!.id;
  assert.equal(
    id,
    upcomingForVehicle(vehicle({ fuelType: 'ELECTRIC' }), [template({})], [], DEFAULTS, NOW)[0]!.id,
  );
  assert.deepEqual(decodeUpcomingId(id), {
    vehicleId: vehicle({}).id,
    templateId: template({}).id,
    cycle: 0,
  });
  assert.equal(decodeUpcomingId(encodeUpcomingId({ vehicleId: 'x', templateId: 'y', cycle: 1 })), null);
  assert.equal(decodeUpcomingId('not an id!'), null);
  assert.equal(decodeUpcomingId(''), null);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEMO_DAYS, historyDays } from './seed';

test("a fleet of up to 2,000 vehicles gets the demo's whole history", () => {
  for (const vehicles of [0, 1, 75, 2_000]) assert.equal(historyDays(vehicles), DEMO_DAYS);
});

test('a larger fleet gets a shorter history, bounded in vehicle-days, never under a week', () => {
  assert.equal(historyDays(7_500), 20);
  assert.equal(historyDays(100_050), 7);
  assert.equal(historyDays(10_000_000), 7);
  for (const vehicles of [2_001, 7_500, 21_428]) assert.ok(vehicles * historyDays(vehicles) <= 150_000);
});

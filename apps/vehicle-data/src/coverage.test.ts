import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import manifest from './manifest';
import { seedVehicleData } from './demo/seed';
import { startHarness, type Harness } from './testing/harness';

const VEHICLES = `query ($ids: [ID!], $makes: [String!], $models: [String!], $years: [Int!], $energyTypes: [CoverageEnergyTypeArg!],
  $regions: [CoverageRegionArg!], $powertrain: CoveragePowertrainArg, $vin: [String!], $parameters: [String!], $blacklisted: Boolean,
  $pageSize: Int, $pageId: ID) {
  coverageVehicles(ids: $ids, makes: $makes, models: $models, years: $years, energyTypes: $energyTypes, regions: $regions,
    powertrain: $powertrain, vin: $vin, parameters: $parameters, blacklisted: $blacklisted, pageSize: $pageSize, pageId: $pageId) {
    count next list { id make model year energyType powertrain regions parameters blacklisted }
  }
}`;

describe('coverage queries', () => {
  let h: Harness;
  let alice: ReturnType<Harness['as']>;
  before(async () => {
    h = await startHarness('vd_coverage');
    alice = h.as(h.alice);
  });
  after(() => h.close());

  test('coverageMakes filters by name and pages with an opaque cursor', async () => {
    const all = await alice('{ coverageMakes(pageSize: 5) { count next list { id name } } }');
    assert.equal(all.errors, undefined);
    assert.equal(all.data.coverageMakes.list.length, 5);
    assert.ok(all.data.coverageMakes.count >= 15);
    const names: string[] = [];
    let pageId: string | null = null;
    do {
      const page: any = await alice(
        'query ($pageId: ID) { coverageMakes(pageSize: 5, pageId: $pageId) { next list { name } } }',
        { pageId },
      );
      names.push(...page.data.coverageMakes.list.map((m: { name: string }) => m.name));
      pageId = page.data.coverageMakes.next;
    } while (pageId);
    assert.equal(names.length, all.data.coverageMakes.count);
    assert.deepEqual(
      names,
      [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
    );
    const renault = await alice('{ coverageMakes(name: "renau") { count list { name } } }');
    assert.deepEqual(renault.data.coverageMakes.list, [{ name: 'Renault' }]);
  });

  test('coverageModels by makes (case-insensitive)', async () => {
    const res = await alice(
      '{ coverageModels(makes: ["tesla", "RENAULT"], pageSize: 100) { count list { name make } } }',
    );
    const list = res.data.coverageModels.list as { name: string; make: string }[];
    assert.ok(list.some((m) => m.make === 'Tesla' && m.name === 'Model 3'));
    assert.ok(list.some((m) => m.make === 'Renault' && m.name === 'Zoe'));
    assert.ok(list.every((m) => m.make === 'Tesla' || m.make === 'Renault'));
    assert.equal(res.data.coverageModels.count, list.length);
  });

  test('coverageVehicles: make, model, year, energy, region, powertrain and parameters filters', async () => {
    const res = await alice(VEHICLES, {
      makes: ['Renault'],
      models: ['Zoe'],
      years: [2020],
      energyTypes: ['ELECTRIC'],
      regions: ['EUROPE'],
      powertrain: 'BEV',
      parameters: ['ev_battery_soc', 'odometer'],
    });
    assert.equal(res.errors, undefined);
    const [zoe] = res.data.coverageVehicles.list;
    assert.equal(res.data.coverageVehicles.count, 1);
    assert.deepEqual(
      [zoe.make, zoe.model, zoe.year, zoe.energyType, zoe.powertrain, zoe.blacklisted],
      ['Renault', 'Zoe', 2020, 'ELECTRIC', 'BEV', false],
    );
    assert.ok(zoe.parameters.includes('charging_status'));
    assert.deepEqual(zoe.parameters, [...zoe.parameters].sort());
    const none = await alice(VEHICLES, { makes: ['Tesla'], regions: ['AFRICA'] });
    assert.equal(none.data.coverageVehicles.count, 0);
    const byId = await alice(VEHICLES, { ids: [zoe.id] });
    assert.equal(byId.data.coverageVehicles.list[0].id, zoe.id);
    const diesel = await alice(VEHICLES, {
      makes: ['Volkswagen'],
      powertrain: 'ICE',
      parameters: ['adblue_level'],
      pageSize: 1000,
    });
    assert.ok(
      diesel.data.coverageVehicles.list.every((v: any) => v.energyType === 'DIESEL' && v.year >= 2015),
    );
  });

  test('coverageVehicles by VIN decodes it offline', async () => {
    const res = await alice(VEHICLES, { vin: ['1HGCM82633A004352', '5YJ3E1EA2KF317000'] });
    assert.equal(res.errors, undefined);
    const list = res.data.coverageVehicles.list as any[];
    assert.deepEqual(
      list.map((v) => `${v.make} ${v.model} ${v.year}`),
      ['Tesla Model 3 2019'],
    );
    const bad = await alice(VEHICLES, { vin: ['1HGCM82633A00435'] });
    assert.equal(bad.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
  });

  test('blacklisted filter and coverageBlacklists', async () => {
    const black = await alice(VEHICLES, { blacklisted: true, makes: ['BMW'], pageSize: 100 });
    const list = black.data.coverageVehicles.list as any[];
    assert.deepEqual([...new Set(list.map((v) => `${v.model} ${v.year}`))], ['i3 2014', 'i3 2015']);
    assert.ok(list.every((v) => v.blacklisted));
    const white = await alice(VEHICLES, {
      blacklisted: false,
      makes: ['BMW'],
      models: ['i3'],
      years: [2014, 2016],
    });
    assert.deepEqual(
      white.data.coverageVehicles.list.map((v: any) => v.year),
      [2016],
    );
    const entries = await alice(
      '{ coverageBlacklists(makes: ["tesla", "bmw"], years: [2015]) { count list { id make model year reason } } }',
    );
    assert.deepEqual(
      entries.data.coverageBlacklists.list.map((b: any) => `${b.make} ${b.model} ${b.year}`),
      ['BMW i3 2015', 'Tesla Model S null'],
    );
    const byModel = await alice('{ coverageBlacklists(models: ["Zoe"]) { list { id year } } }');
    assert.deepEqual(byModel.data.coverageBlacklists.list, [{ id: 'bl_renault_zoe_2013', year: 2013 }]);
    const byId = await alice('{ coverageBlacklists(ids: ["bl_renault_zoe_2013"]) { count } }');
    assert.equal(byId.data.coverageBlacklists.count, 1);
  });

  test('paging errors: pageSize over the maximum, tampered and foreign cursors', async () => {
    const big = await alice(VEHICLES, { pageSize: 1001 });
    assert.equal(big.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
    assert.match(big.errors![0]!.message, /between 1 and 1000/);
    const first = await alice(VEHICLES, { makes: ['Renault'], pageSize: 10 });
    const next = first.data.coverageVehicles.next as string;
    assert.ok(next);
    const second = await alice(VEHICLES, { makes: ['Renault'], pageId: next });
    assert.equal(second.data.coverageVehicles.list.length, 10);
    assert.notEqual(second.data.coverageVehicles.list[0].id, first.data.coverageVehicles.list[0].id);
    const other = await alice(VEHICLES, { makes: ['Tesla'], pageId: next });
    assert.match(other.errors![0]!.message, /another query/);
    const tampered = await alice(VEHICLES, { makes: ['Renault'], pageId: `${next}x` });
    assert.equal(tampered.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
  });

  test('the demo hook says it is seeded; seeding again leaves the tables as they are', async () => {
    assert.equal(await manifest.demoData!.isSeeded(h.knex), true);
    const before = await alice(VEHICLES, { pageSize: 1 });
    assert.equal(before.errors, undefined);
    assert.ok(before.data.coverageVehicles.count > 100, String(before.data.coverageVehicles.count));
    assert.deepEqual(await seedVehicleData(h.knex), {}, 'nothing written the second time');
    const after = await alice(VEHICLES, { pageSize: 1 });
    assert.equal(after.data.coverageVehicles.count, before.data.coverageVehicles.count);
  });
});

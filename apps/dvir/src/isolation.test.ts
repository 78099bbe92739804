import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { D, startDvirHarness, type DvirHarness } from './testing/fixture';

let h: DvirHarness;
let F: any;
const ok = (res: any) => {
  assert.equal(res.errors, undefined, JSON.stringify(res.errors));
  assert.ok(res.data);
  return res.data;
};

before(async () => {
  h = await startDvirHarness('dvir-isolation');
  F = h.facts['fleet-core'];
});
after(async () => h?.close());

describe('another organization (carol, Globex)', () => {
  test('sees her own report and null for every Acme id', async () => {
    const carol = h.as(F.carol);
    const own = ok(
      await carol(
        `{ inspectionReports { count list { id } } defects { count } inspectionTemplates { count list { id } } }`,
      ),
    );
    assert.deepEqual(own.inspectionReports.list, [{ id: D.reports.r6 }]);
    assert.equal(own.defects.count, 0);
    assert.deepEqual(own.inspectionTemplates.list, [{ id: D.templates.globex }]);
    const acme = ok(
      await carol(
        `query($r: ID!, $a: ID!, $d: ID!, $f: ID!, $i: ID!, $t: ID!) {
          inspectionReport(id: $r) { id } inspectionAnswer(id: $a) { id } defect(id: $d) { id }
          dvirAttachment(id: $f) { id } inspectionItem(id: $i) { id } inspectionTemplate(id: $t) { id } }`,
        {
          r: D.reports.r1,
          a: D.answer(1, 1),
          d: D.defect(1),
          f: D.attachment(1),
          i: D.items.acme(1, 1),
          t: D.templates.acme,
        },
      ),
    );
    assert.deepEqual(acme, {
      inspectionReport: null,
      inspectionAnswer: null,
      defect: null,
      dvirAttachment: null,
      inspectionItem: null,
      inspectionTemplate: null,
    });
    const filtered = ok(
      await carol(
        `query($v: ID, $r: ID) { inspectionReports(vehicleId: $v) { count } inspectionAnswers(inspectionReportId: $r) { count } defects(vehicleId: $v) { count } }`,
        {
          v: F.vehicles.depot[0],
          r: D.reports.r1,
        },
      ),
    );
    assert.deepEqual(filtered, {
      inspectionReports: { count: 0 },
      inspectionAnswers: { count: 0 },
      defects: { count: 0 },
    });
  });

  test('_entities answers null for an Acme vehicle', async () => {
    const data = ok(
      await h.as(F.carol)(
        `query($r: [_Any!]!) { _entities(representations: $r) { ... on Vehicle { id dvirSafeToDrive inspectionReports { count } } } }`,
        {
          r: [
            { __typename: 'Vehicle', id: F.vehicles.depot[1] },
            { __typename: 'Vehicle', id: F.vehicles.globex },
          ],
        },
      ),
    );
    assert.equal(data._entities[0], null);
    assert.deepEqual(data._entities[1], {
      id: F.vehicles.globex,
      dvirSafeToDrive: true,
      inspectionReports: { count: 1 },
    });
  });
});

describe('a restricted dispatcher (bob: North and its depot, not South)', () => {
  test('sees depot reports, not South ones', async () => {
    const bob = h.as(F.bob);
    const data = ok(
      await bob(`{ inspectionReports { count list { id vehicleId } } defects { count list { id } } }`),
    );
    const ids = data.inspectionReports.list.map((r: any) => r.id);
    assert.ok(ids.includes(D.reports.r1));
    assert.ok(!ids.includes(D.reports.r4), 'the South report is not listed');
    assert.ok(data.inspectionReports.list.every((r: any) => F.vehicles.depot.includes(r.vehicleId)));
    assert.ok(!data.defects.list.some((d: any) => d.id === D.defect(4)));
    const south = ok(
      await bob(
        `query($r: ID!, $a: ID!, $d: ID!, $g: ID) { inspectionReport(id: $r) { id } inspectionAnswer(id: $a) { id } defect(id: $d) { id } inspectionReports(groupId: $g) { count } }`,
        {
          r: D.reports.r4,
          a: D.answer(4, 1),
          d: D.defect(4),
          g: F.groups.south,
        },
      ),
    );
    assert.deepEqual(south, {
      inspectionReport: null,
      inspectionAnswer: null,
      defect: null,
      inspectionReports: { count: 0 },
    });
    const entity = ok(
      await bob(
        `query($r: [_Any!]!) { _entities(representations: $r) { ... on Vehicle { id openDefects { count } } } }`,
        {
          r: [
            { __typename: 'Vehicle', id: F.vehicles.south[0] },
            { __typename: 'Vehicle', id: F.vehicles.depot[1] },
          ],
        },
      ),
    );
    assert.deepEqual(entity._entities, [null, { id: F.vehicles.depot[1], openDefects: { count: 1 } }]);
  });

  test('sees the depot template and the organization-wide one', async () => {
    const data = ok(await h.as(F.bob)(`{ inspectionTemplates { list { id } } }`));
    assert.deepEqual(
      data.inspectionTemplates.list.map((t: any) => t.id).sort(),
      [D.templates.acme, D.templates.depot].sort(),
    );
  });
});

describe('bad input', () => {
  const codeOf = (res: any) => res.errors?.[0]?.extensions?.code;
  test('unknown enum value', async () => {
    const res = await h.as(F.alice)(`{ inspectionReports(status: BROKEN) { count } }`);
    assert.ok(
      ['GRAPHQL_VALIDATION_FAILED', 'BAD_USER_INPUT'].includes(codeOf(res)),
      JSON.stringify(res.errors),
    );
    const vars = await h.as(F.alice)(`query($s: DvirDefectStatus) { defects(status: $s) { count } }`, {
      s: 'BROKEN',
    });
    assert.ok(
      ['GRAPHQL_VALIDATION_FAILED', 'BAD_USER_INPUT'].includes(codeOf(vars)),
      JSON.stringify(vars.errors),
    );
  });
  test('a malformed id: null for a lookup, BAD_USER_INPUT for a filter', async () => {
    const res = ok(
      await h.as(F.alice)(
        `{ inspectionReport(id: "nope") { id } defect(id: "1") { id } inspectionTemplate(id: "x") { id } }`,
      ),
    );
    assert.deepEqual(res, { inspectionReport: null, defect: null, inspectionTemplate: null });
    for (const q of [
      `{ inspectionReports(vehicleId: "nope") { count } }`,
      `{ defects(inspectionItemId: "nope") { count } }`,
      `{ inspectionAnswers(inspectionReportId: "nope") { count } }`,
      `{ inspectionTemplates(groupId: "nope") { count } }`,
    ]) {
      const bad = await h.as(F.alice)(q);
      assert.equal(codeOf(bad), 'BAD_USER_INPUT', q);
    }
  });
  test('a huge pageSize, a forged pageId, mixed sort directions, version 0', async () => {
    const huge = await h.as(F.alice)(`{ inspectionReports(pageSize: 100000) { count } }`);
    assert.equal(codeOf(huge), 'BAD_USER_INPUT');
    assert.match(huge.errors![0]!.message, /between 1 and 200/);
    const nested = await h.as(F.alice)(
      `query($id: ID!) { inspectionReport(id: $id) { inspectionAnswers(pageSize: 5000) { count } } }`,
      { id: D.reports.r1 },
    );
    assert.equal(codeOf(nested), 'BAD_USER_INPUT');
    const forged = await h.as(F.alice)(`{ defects(pageId: "forged") { count } }`);
    assert.equal(codeOf(forged), 'BAD_USER_INPUT');
    const first = ok(await h.as(F.alice)(`{ inspectionReports(pageSize: 1) { next } }`));
    const moved = await h.as(F.alice)(
      `query($p: ID) { inspectionReports(status: VALIDATED, pageId: $p) { count } }`,
      { p: first.inspectionReports.next },
    );
    assert.equal(codeOf(moved), 'BAD_USER_INPUT', 'a cursor is bound to its filters');
    const mixed = await h.as(F.alice)(`{ inspectionTemplates(sort: [NAME_ASC, VERSION_DESC]) { count } }`);
    assert.equal(codeOf(mixed), 'BAD_USER_INPUT');
    const zero = await h.as(F.alice)(`{ inspectionTemplates(version: 0) { count } }`);
    assert.equal(codeOf(zero), 'BAD_USER_INPUT');
  });
});

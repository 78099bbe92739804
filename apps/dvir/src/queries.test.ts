import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { D, startDvirHarness, type DvirHarness } from './testing/fixture';
import { ANSWER, ATTACHMENT, DEFECT, ITEM, REPORT, TEMPLATE } from './testing/fields';
import { explainNodes, rowsRead } from '@fleetgraph/testing';
import { relations } from './data/relation-specs';

let h: DvirHarness;
let F: any;
const ok = (res: any) => {
  assert.equal(res.errors, undefined, JSON.stringify(res.errors));
  assert.ok(res.data);
  return res.data;
};

before(async () => {
  // The statement-count test asks pages far over the query-cost limit (which the gateway and the
  // subgraph both enforce) on purpose: it proves batching, not what clients may ask.
  h = await startDvirHarness('dvir-queries', { MAX_COST: '100000000' });
  F = h.facts['fleet-core'];
});
after(async () => h?.close());

describe('root queries', () => {
  test('inspectionReport selects every field', async () => {
    const data = ok(
      await h.as(F.alice)(`query($id: ID!) { inspectionReport(id: $id) { ${REPORT} } }`, {
        id: D.reports.r1,
      }),
    );
    const r = data.inspectionReport;
    assert.equal(r.id, D.reports.r1);
    assert.equal(r.status, 'OUT_OF_SERVICE');
    assert.equal(r.workflowStatus, 'SUBMITTED');
    assert.equal(r.inspectionType, 'PRE_TRIP');
    assert.equal(r.templateVersion, 1);
    assert.equal(r.vehicleType, 'VAN');
    assert.equal(r.vehicleId, F.vehicles.depot[0]);
    assert.equal(r.groupId, F.groups.depot);
    assert.equal(r.driverId, F.drivers.anna);
    assert.deepEqual(r.vehicle, { id: F.vehicles.depot[0] });
    assert.deepEqual(r.driver, { id: F.drivers.anna });
    assert.equal(r.odometer, 12001);
    assert.equal(r.fuelLevel, 51);
    assert.equal(r.locationAddress, '1 rue de Rivoli, Paris');
    assert.equal(r.locationLat, 48.85);
    assert.equal(r.startedAt, '2026-03-10T07:00:00.000Z');
    assert.equal(r.completedAt, '2026-03-10T07:10:00.000Z');
    assert.equal(r.driverSignatureDate, '2026-03-10T07:10:00.000Z');
    assert.equal(r.inspectionTemplate.id, D.templates.acme);
    assert.equal(r.inspectionTemplate.version, 1, 'the template at the version the report was taken against');
    assert.equal(r.inspectionTemplate.inspectionItems.count, 4);
    assert.equal(r.inspectionAnswers.count, 4);
    assert.deepEqual(
      r.inspectionAnswers.list.map((a: any) => a.itemOrderPosition),
      [1, 2, 3, 4],
    );
    assert.equal(r.defects.count, 1);
    assert.equal(r.attachments.count, 3);
    assert.deepEqual(r.attachments.list.map((a: any) => a.kind).sort(), [
      'DOCUMENT',
      'SIGNATURE',
      'WALKAROUND',
    ]);
  });

  test('inspectionReports: newest first, filters, paging and count', async () => {
    const alice = h.as(F.alice);
    const all = ok(
      await alice(`{ inspectionReports { count next list { id startedAt } } }`),
    ).inspectionReports;
    assert.equal(all.count, 6, 'alice sees every Acme report, not Globex');
    const times = all.list.map((r: any) => r.startedAt);
    assert.deepEqual(times, [...times].sort().reverse());
    const q = `query($v: ID, $d: ID, $g: ID, $w: DvirInspectionReportWorkflowStatus, $s: DvirInspectionReportStatus, $t: DvirInspectionType, $n: Int, $p: ID) {
      inspectionReports(vehicleId: $v, driverId: $d, groupId: $g, workflowStatus: $w, status: $s, inspectionType: $t, pageSize: $n, pageId: $p) { count next list { id } } }`;
    const ids = async (vars: Record<string, unknown>) =>
      ok(await alice(q, vars))
        .inspectionReports.list.map((r: any) => r.id)
        .sort();
    assert.deepEqual(
      await ids({ v: F.vehicles.depot[0] }),
      [D.reports.r1, D.reports.r2, D.reports.r3].sort(),
    );
    assert.deepEqual(await ids({ d: F.drivers.bruno }), [D.reports.r3, D.reports.r5].sort());
    assert.deepEqual(await ids({ g: F.groups.south }), [D.reports.r4]);
    assert.deepEqual(await ids({ w: 'IN_PROGRESS' }), [D.reports.r3]);
    assert.deepEqual(await ids({ s: 'OUT_OF_SERVICE' }), [D.reports.r1, D.reports.r5].sort());
    assert.deepEqual(await ids({ s: 'PENDING' }), [D.reports.r3]);
    assert.deepEqual(await ids({ t: 'PERIODIC' }), [D.reports.r5]);
    assert.deepEqual(await ids({ t: 'POST_TRIP' }), [D.reports.r2]);
    // Paging: 2 per page walks every report once.
    const seen: string[] = [];
    let pageId: string | null = null;
    do {
      const page: any = ok(await alice(q, { n: pageId ? undefined : 2, p: pageId })).inspectionReports;
      assert.ok(page.list.length <= 2);
      seen.push(...page.list.map((r: any) => r.id));
      pageId = page.next;
    } while (pageId);
    assert.deepEqual(
      seen,
      all.list.map((r: any) => r.id),
    );
  });

  test('inspectionAnswer and inspectionAnswers with every field', async () => {
    const alice = h.as(F.alice);
    const one = ok(
      await alice(`query($id: ID!) { inspectionAnswer(id: $id) { ${ANSWER} } }`, { id: D.answer(1, 2) }),
    ).inspectionAnswer;
    assert.equal(one.result, 'DEFECT');
    assert.equal(one.resultLabel, 'Defect');
    assert.equal(one.comment, 'Problem 2');
    assert.equal(one.itemName, 'Brakes');
    assert.equal(one.itemDescription, 'Check the brakes');
    assert.equal(one.itemCategory, 'BRAKES');
    assert.equal(one.itemCategoryLabel, 'Brakes');
    assert.equal(one.itemOrderPosition, 2);
    assert.equal(one.photoCountMin, 1);
    assert.equal(one.photoCountMax, 2);
    assert.equal(one.itemRequired, true);
    assert.equal(one.inspectionReportId, D.reports.r1);
    assert.equal(one.inspectionItemId, D.items.acme(1, 2));
    assert.equal(one.attachments.count, 1);
    assert.equal(one.attachments.list[0].contentType, 'image/jpeg');
    const list = ok(
      await alice(
        `query($r: ID) { inspectionAnswers(inspectionReportId: $r, locale: DE) { count next list { ${ANSWER} } } }`,
        { r: D.reports.r1 },
      ),
    ).inspectionAnswers;
    assert.equal(list.count, 4);
    assert.deepEqual(
      list.list.map((a: any) => a.itemName),
      ['Karosserie und Spiegel', 'Bremsen', 'Reifen', 'Beleuchtung'],
    );
    assert.deepEqual(
      list.list.map((a: any) => a.resultLabel),
      ['In Ordnung', 'Mangel', 'In Ordnung', 'In Ordnung'],
    );
    const every = ok(
      await alice(`{ inspectionAnswers(pageSize: 500) { count list { id } } }`),
    ).inspectionAnswers;
    assert.equal(every.count, 4 + 4 + 1 + 4 + 4 + 2);
  });

  test('inspectionTemplate, inspectionTemplates (filters, sort, versions) and inspectionItem', async () => {
    const alice = h.as(F.alice);
    const t = ok(
      await alice(`query($id: ID!) { inspectionTemplate(id: $id) { ${TEMPLATE} } }`, {
        id: D.templates.acme,
      }),
    ).inspectionTemplate;
    assert.equal(t.version, 2, 'the latest version');
    assert.equal(t.active, true);
    assert.equal(t.name, 'Daily check v2');
    assert.equal(t.groupId, null);
    assert.equal(t.vehicleType, 'VAN');
    assert.equal(t.signatureRequired, true);
    assert.equal(t.defaultLanguage, 'EN');
    assert.deepEqual(t.translations.FR, { name: 'Contrôle quotidien' });
    assert.equal(t.inspectionItems.count, 4);
    assert.equal(t.inspectionItems.list[2].name, 'Tyres and wheels');
    const q = `query($g: ID, $a: Boolean, $v: Int, $vt: VehicleTypeName, $s: [InspectionTemplateSort!], $l: Language) {
      inspectionTemplates(groupId: $g, active: $a, version: $v, vehicleType: $vt, sort: $s, locale: $l) { count next list { id version name active } } }`;
    const list = async (vars: Record<string, unknown>) => ok(await alice(q, vars)).inspectionTemplates;
    const latest = await list({});
    assert.equal(latest.count, 2, 'alice: the Acme template (latest) and the depot template');
    assert.deepEqual(
      latest.list.map((x: any) => x.name),
      ['Contrôle dépôt', 'Daily check v2'],
    );
    assert.deepEqual(
      (await list({ s: ['NAME_DESC'] })).list.map((x: any) => x.name),
      ['Daily check v2', 'Contrôle dépôt'],
    );
    const v1 = await list({ v: 1 });
    assert.deepEqual(
      v1.list.map((x: any) => [x.name, x.version, x.active]),
      [
        ['Contrôle dépôt', 1, true],
        ['Daily check', 1, false],
      ],
    );
    assert.deepEqual(
      (await list({ g: F.groups.depot })).list.map((x: any) => x.id),
      [D.templates.depot],
    );
    assert.deepEqual((await list({ a: false })).list, []);
    assert.equal((await list({ vt: 'CAR' })).count, 0);
    assert.deepEqual(
      (await list({ l: 'FR' })).list.map((x: any) => x.name),
      ['Contrôle dépôt', 'Contrôle quotidien'],
    );
    assert.deepEqual(
      (await list({ l: 'EN' })).list.map((x: any) => x.name),
      ['Depot check', 'Daily check v2'],
    );
    assert.deepEqual(
      (await list({ s: ['CREATED_AT_DESC'] })).list.map((x: any) => x.id),
      [D.templates.depot, D.templates.acme],
    );
    const versions = await alice(
      `{ inspectionTemplates(version: 2, sort: [VERSION_ASC]) { list { version } } }`,
    );
    assert.deepEqual(ok(versions).inspectionTemplates.list, [{ version: 2 }]);
    const item = ok(
      await alice(`query($id: ID!) { inspectionItem(id: $id, locale: FR) { ${ITEM} } }`, {
        id: D.items.acme(1, 3),
      }),
    ).inspectionItem;
    assert.equal(item.name, 'Pneus');
    assert.equal(item.categoryLabel, 'Pneus et roues');
    assert.equal(item.category, 'TIRES');
    assert.equal(item.inspectionTemplateId, D.templates.acme);
    assert.equal(item.inspectionTemplateVersion, 1);
    assert.deepEqual(item.translations.DE, { name: 'Reifen' });
  });

  test('defect and defects with every field, filters and resolution', async () => {
    const alice = h.as(F.alice);
    const d1 = ok(
      await alice(`query($id: ID!) { defect(id: $id) { ${DEFECT} } }`, { id: D.defect(1) }),
    ).defect;
    assert.equal(d1.status, 'RESOLVED');
    assert.equal(d1.resolution, 'IN_LATER_REPORT');
    assert.equal(d1.resolvedInInspectionReportId, D.reports.r2);
    assert.deepEqual(d1.resolvedInInspectionReport, { id: D.reports.r2 });
    assert.deepEqual(d1.reportedInInspectionReport, { id: D.reports.r1 });
    assert.equal(d1.inspectionAnswerId, D.answer(1, 2));
    assert.equal(d1.inspectionItemId, D.items.acme(1, 2));
    assert.equal(d1.inspectionItem.name, 'Brakes');
    assert.equal(d1.reportedByDriverId, F.drivers.anna);
    assert.deepEqual(d1.reportedByDriver, { id: F.drivers.anna });
    assert.deepEqual(d1.vehicle, { id: F.vehicles.depot[0] });
    assert.equal(d1.description, 'Problem 2');
    assert.equal(d1.outOfService, true);
    assert.ok(d1.resolvedAt);
    assert.equal(d1.attachments.count, 1, 'the defect carries its answer photo');
    const d7 = ok(
      await alice(`query($id: ID!) { defect(id: $id) { ${DEFECT} } }`, { id: D.defect(7) }),
    ).defect;
    assert.equal(d7.resolution, 'BY_MECHANIC');
    assert.equal(d7.mechanicName, 'Garage Martin');
    assert.equal(
      d7.inspectionItem.name,
      'Papiers du véhicule',
      'fallback: the template default language (FR)',
    );
    const q = `query($v: ID, $s: DvirDefectStatus, $i: ID) { defects(vehicleId: $v, status: $s, inspectionItemId: $i) { count next list { id status } } }`;
    const ids = async (vars: Record<string, unknown>) =>
      ok(await alice(q, vars))
        .defects.list.map((d: any) => d.id)
        .sort();
    assert.equal(ok(await alice(q, {})).defects.count, 5);
    assert.deepEqual(await ids({ s: 'DRAFT' }), [D.defect(3)]);
    assert.deepEqual(await ids({ s: 'OPEN' }), [D.defect(5)]);
    assert.deepEqual(await ids({ s: 'IN_REPAIR' }), [D.defect(4)]);
    assert.deepEqual(await ids({ s: 'RESOLVED' }), [D.defect(1), D.defect(7)].sort());
    assert.deepEqual(await ids({ v: F.vehicles.depot[0] }), [D.defect(1), D.defect(3)].sort());
    assert.deepEqual(await ids({ i: D.items.acme(2, 3) }), [D.defect(5)]);
  });

  test('dvirAttachment with every field', async () => {
    const a = ok(
      await h.as(F.alice)(`query($id: ID!) { dvirAttachment(id: $id) { ${ATTACHMENT} } }`, {
        id: D.attachment(1),
      }),
    ).dvirAttachment;
    assert.equal(a.kind, 'WALKAROUND');
    assert.equal(a.filename, 'walkaround.png');
    assert.equal(a.contentType, 'image/png');
    assert.ok(a.byteSize > 50);
    assert.equal(a.fileAttached, true);
    assert.match(
      a.fileUrl,
      /^http:\/\/dvir\.test\/files\/7c000000-0000-4000-8000-000000000001\?exp=\d+&sig=/,
    );
    assert.equal(a.attachableType, 'InspectionReport');
    assert.equal(a.attachableId, D.reports.r1);
    const missing = ok(
      await h.as(F.alice)(`query($id: ID!) { dvirAttachment(id: $id) { fileAttached fileUrl byteSize } }`, {
        id: D.attachment(3),
      }),
    ).dvirAttachment;
    assert.deepEqual(missing, { fileAttached: false, fileUrl: null, byteSize: 0 });
  });
});

describe('rules visible in answers', () => {
  test('answers keep the item as it was after the template changed (snapshot)', async () => {
    const alice = h.as(F.alice);
    const v1 = ok(
      await alice(`query($id: ID!) { inspectionAnswer(id: $id) { itemName } }`, { id: D.answer(1, 3) }),
    );
    assert.equal(v1.inspectionAnswer.itemName, 'Tires');
    const v2 = ok(
      await alice(`query($id: ID!) { inspectionAnswer(id: $id) { itemName } }`, { id: D.answer(2, 3) }),
    );
    assert.equal(v2.inspectionAnswer.itemName, 'Tyres and wheels');
    // Editing the item afterwards does not change answers recorded before.
    await h
      .knex('dvir.inspection_items')
      .where('id', D.items.acme(2, 3))
      .update({ name: 'Wheels (renamed)' });
    const again = ok(
      await alice(`query($id: ID!) { inspectionAnswer(id: $id) { itemName } }`, { id: D.answer(2, 3) }),
    );
    assert.equal(again.inspectionAnswer.itemName, 'Tyres and wheels');
    await h
      .knex('dvir.inspection_items')
      .where('id', D.items.acme(2, 3))
      .update({ name: 'Tyres and wheels' });
  });

  test('a DEFECT answer has its defect; an in-progress report has a DRAFT defect and PENDING status', async () => {
    const r3 = ok(
      await h.as(F.alice)(
        `query($id: ID!) { inspectionReport(id: $id) { status workflowStatus defects { list { status inspectionAnswerId reportedByDriverId } } } }`,
        { id: D.reports.r3 },
      ),
    ).inspectionReport;
    assert.equal(r3.status, 'PENDING');
    assert.deepEqual(r3.defects.list, [
      { status: 'DRAFT', inspectionAnswerId: D.answer(3, 1), reportedByDriverId: F.drivers.bruno },
    ]);
  });

  test('locale falls back to the template default language, never blank', async () => {
    const alice = h.as(F.alice);
    // ES is not translated: English (the acme template's default language).
    const es = ok(
      await alice(
        `query($r: ID) { inspectionAnswers(inspectionReportId: $r, locale: ES) { list { itemName itemCategoryLabel resultLabel } } }`,
        { r: D.reports.r1 },
      ),
    );
    assert.equal(es.inspectionAnswers.list[0].itemName, 'Body and mirrors');
    assert.equal(es.inspectionAnswers.list[0].itemCategoryLabel, 'Exterior');
    assert.equal(es.inspectionAnswers.list[0].resultLabel, 'Correcto', 'labels exist in ES');
    // The depot template is French by default; NL item names fall back to French.
    const nl = ok(
      await alice(
        `query($r: ID) { inspectionAnswers(inspectionReportId: $r, locale: NL) { list { itemName resultLabel } } }`,
        { r: D.reports.r7 },
      ),
    );
    assert.deepEqual(
      nl.inspectionAnswers.list.map((a: any) => a.itemName),
      ['Papiers du véhicule', 'Arrimage'],
    );
    assert.equal(nl.inspectionAnswers.list[0].resultLabel, 'Defect');
    const plain = ok(
      await alice(
        `query($r: ID) { inspectionAnswers(inspectionReportId: $r) { list { itemName resultLabel itemCategoryLabel } } }`,
        { r: D.reports.r7 },
      ),
    );
    assert.deepEqual(plain.inspectionAnswers.list[0], {
      itemName: 'Papiers du véhicule',
      resultLabel: 'Défaut',
      itemCategoryLabel: 'Documents',
    });
    // A language outside the label table (PL) falls back too, never blank.
    const pl = ok(
      await alice(`query($id: ID!) { inspectionItem(id: $id, locale: PL) { name categoryLabel } }`, {
        id: D.items.depot(2),
      }),
    );
    assert.deepEqual(pl.inspectionItem, { name: 'Arrimage', categoryLabel: 'Chargement' });
    const nested = ok(
      await alice(
        `query($id: ID!) { inspectionReport(id: $id) { inspectionTemplate(locale: DE) { name inspectionItems { list { name categoryLabel } } } } }`,
        { id: D.reports.r2 },
      ),
    );
    assert.equal(nested.inspectionReport.inspectionTemplate.name, 'Tägliche Prüfung');
    assert.deepEqual(nested.inspectionReport.inspectionTemplate.inspectionItems.list[1], {
      name: 'Bremsen',
      categoryLabel: 'Bremsen',
    });
  });
});

describe('Vehicle contribution', () => {
  const entities = `query($r: [_Any!]!) { _entities(representations: $r) { ... on Vehicle { id dvirSafeToDrive
    lastInspectionReport { id }
    inspectionReports { count list { id } } openDefects { count list { id status } } defects(status: RESOLVED) { count list { id } } } } }`;
  test('reports, open defects, defects by status and safe-to-drive of a vehicle', async () => {
    const data = ok(
      await h.as(F.alice)(entities, {
        r: [F.vehicles.depot[0], F.vehicles.depot[1], F.vehicles.south[0]].map((id) => ({
          __typename: 'Vehicle',
          id,
        })),
      }),
    );
    const [v0, v1, s0] = data._entities;
    assert.equal(v0.inspectionReports.count, 3);
    assert.equal(v0.dvirSafeToDrive, true, 'its OUT_OF_SERVICE defect was resolved in a later report');
    assert.equal(
      v0.lastInspectionReport.id,
      D.reports.r2,
      'the in-progress report is not the last submitted one',
    );
    assert.equal(v0.openDefects.count, 0);
    assert.deepEqual(v0.defects.list, [{ id: D.defect(1) }]);
    assert.equal(v1.dvirSafeToDrive, false);
    assert.deepEqual(v1.openDefects.list, [{ id: D.defect(5), status: 'OPEN' }]);
    assert.equal(s0.dvirSafeToDrive, true, 'a WITH_DEFECTS defect does not ground the vehicle');
    assert.deepEqual(s0.openDefects.list, [{ id: D.defect(4), status: 'IN_REPAIR' }]);
    const filtered = ok(
      await h.as(F.alice)(
        `query($r: [_Any!]!) { _entities(representations: $r) { ... on Vehicle { inspectionReports(workflowStatus: SUBMITTED, status: VALIDATED, inspectionType: POST_TRIP, startedAfter: "2026-03-10T00:00:00Z", startedBefore: "2026-03-12T00:00:00Z") { list { id } } } } }`,
        { r: [{ __typename: 'Vehicle', id: F.vehicles.depot[0] }] },
      ),
    );
    assert.deepEqual(filtered._entities[0].inspectionReports.list, [{ id: D.reports.r2 }]);
  });
});

describe('statements per request', () => {
  test('do not grow with the page size', async () => {
    const q = `query($n: Int) { inspectionReports(pageSize: $n) { count list { ${REPORT} } } }`;
    const counts: number[] = [];
    for (const n of [1, 6]) {
      h.statements.reset();
      const data = ok(await h.as(F.alice)(q, { n }));
      assert.equal(data.inspectionReports.list.length, n);
      counts.push(h.statements.count);
    }
    // A lookup sibling levels share (the items of answers and of defects, the fleet ids of reports
    // and of defects) runs once for both or once per level, as their rows arrive: never per row.
    assert.ok(counts[1]! <= counts[0]! + 2, `statements: ${counts.join(' vs ')}`);
  });
});

describe('visibility under a visible parent', () => {
  test("a report's answers are tested once per report, not once per answer", async () => {
    const reports = [D.reports.r1, D.reports.r2, D.reports.r4, D.reports.r5];
    const children = relations.reportAnswers.children(h.knex, F.alice.uid);
    const { sql, bindings } = h.knex
      .raw('select t.* from unnest(?::uuid[]) as p(parent_id) cross join lateral (?) t', [reports, children])
      .toSQL();
    const { rows } = await h.knex.raw(sql, bindings);
    assert.equal(rows.length, 16, 'control: the four answers of each of the four reports');
    const nodes = await explainNodes(h.knex, sql, bindings, { analyze: true });
    // One visibility test per report: its vehicle's placement, read once each.
    const placements = rowsRead(nodes, 'group_vehicles');
    assert.ok(placements <= reports.length, `vehicle placements read: ${placements}`);
  });
});

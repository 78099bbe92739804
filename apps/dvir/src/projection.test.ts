/**
 * Column projection (TableSpec.fieldNeeds) never changes an answer: every field of a projected
 * type, selected alone (so only its columns are read), answers exactly what it answers when every
 * field is selected (every column read), through HTTP on real PostgreSQL. A field whose needs
 * were declared too short would read a column that was not selected and answer differently.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dataOf } from '@fleetgraph/testing';
import { assertProjectionKeepsAnswers, type ProjectionCase } from '@fleetgraph/subgraph-kit/testing';
import { startDvirHarness, type DvirHarness } from './testing/fixture';
import { ANSWER, ATTACHMENT, DEFECT, ITEM, REPORT } from './testing/fields';

let h: DvirHarness;
let F: any;

before(async () => {
  // Full selections of nested pages are far over the query-cost limit on purpose: they compare
  // answers, they are not what clients may ask.
  h = await startDvirHarness('dvir-projection', { MAX_COST: '100000000' });
  F = h.facts['fleet-core'];
});
after(async () => h?.close());

/** A projected list: `wrap` places a selection of the type's fields where the list's items are. */
const cases: Array<ProjectionCase & { type: string }> = [
  {
    type: 'InspectionReport (root page)',
    full: REPORT,
    wrap: (s) => `{ inspectionReports(pageSize: 20) { list { ${s} } } }`,
    items: (d) => d.inspectionReports.list,
  },
  {
    type: 'InspectionAnswer (root page, locale DE)',
    full: ANSWER,
    wrap: (s) => `{ inspectionAnswers(pageSize: 100, locale: DE) { list { ${s} } } }`,
    items: (d) => d.inspectionAnswers.list,
  },
  {
    type: 'InspectionAnswer (nested, locale FR)',
    full: ANSWER,
    wrap: (s) =>
      `{ inspectionReports(pageSize: 20) { list { id inspectionAnswers(locale: FR) { list { ${s} } } } } }`,
    items: (d) => d.inspectionReports.list.flatMap((r: any) => r.inspectionAnswers.list),
  },
  {
    type: 'InspectionAnswer (nested, no locale)',
    full: ANSWER,
    wrap: (s) => `{ inspectionReports(pageSize: 20) { list { id inspectionAnswers { list { ${s} } } } } }`,
    items: (d) => d.inspectionReports.list.flatMap((r: any) => r.inspectionAnswers.list),
  },
  {
    type: 'Defect (root page)',
    full: DEFECT,
    wrap: (s) => `{ defects(pageSize: 50) { list { ${s} } } }`,
    items: (d) => d.defects.list,
  },
  {
    type: 'Defect (nested)',
    full: DEFECT,
    wrap: (s) => `{ inspectionReports(pageSize: 20) { list { id defects { list { ${s} } } } } }`,
    items: (d) => d.inspectionReports.list.flatMap((r: any) => r.defects.list),
  },
  {
    type: 'InspectionItem (Template.inspectionItems, locale FR)',
    full: ITEM,
    wrap: (s) => `{ inspectionTemplates { list { id inspectionItems(locale: FR) { list { ${s} } } } } }`,
    items: (d) => d.inspectionTemplates.list.flatMap((t: any) => t.inspectionItems.list),
  },
  {
    type: 'InspectionItem (Template.inspectionItems, no locale)',
    full: ITEM,
    wrap: (s) => `{ inspectionTemplates { list { id inspectionItems { list { ${s} } } } } }`,
    items: (d) => d.inspectionTemplates.list.flatMap((t: any) => t.inspectionItems.list),
  },
  {
    type: 'DvirAttachment (Report.attachments)',
    full: ATTACHMENT,
    wrap: (s) => `{ inspectionReports(pageSize: 20) { list { id attachments { list { ${s} } } } } }`,
    items: (d) => d.inspectionReports.list.flatMap((r: any) => r.attachments.list),
  },
  {
    type: 'DvirAttachment (Answer.attachments)',
    full: ATTACHMENT,
    wrap: (s) =>
      `{ inspectionReports(pageSize: 20) { list { id inspectionAnswers { list { id attachments { list { ${s} } } } } } } }`,
    items: (d) =>
      d.inspectionReports.list.flatMap((r: any) =>
        r.inspectionAnswers.list.flatMap((a: any) => a.attachments.list),
      ),
  },
];

describe('column projection', () => {
  for (const projection of cases)
    test(`${projection.type}: each field alone answers what it answers with every field selected`, () =>
      assertProjectionKeepsAnswers(h.as(F.alice), projection));

  test('a narrow selection reads only its columns (the projection is in force)', async () => {
    h.statements.reset();
    dataOf(await h.as(F.alice)(wrapAnswers('itemName')));
    const answers = h.statements.statements.find((sql) => sql.includes('inspection_answers'));
    assert.ok(answers, 'the answers were read');
    assert.match(answers, /item_translations/);
    assert.doesNotMatch(answers, /item_description|photo_count_min|"comment"/);
  });
});

const wrapAnswers = (selection: string) =>
  `{ inspectionReports(pageSize: 5) { list { id inspectionAnswers(locale: FR) { list { ${selection} } } } } }`;

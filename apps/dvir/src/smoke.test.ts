import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startDvirHarness, type DvirHarness } from './testing/fixture';

let h: DvirHarness;
before(async () => {
  h = await startDvirHarness('dvir-smoke');
});
after(async () => h?.close());

test('smoke', async () => {
  const alice = h.as(h.facts['fleet-core'].alice);
  const res = await alice(
    `{ inspectionReports { count next list { id status workflowStatus defects { list { id status } } inspectionAnswers(locale: FR) { list { itemName resultLabel itemCategoryLabel } } attachments { list { kind contentType byteSize fileAttached fileUrl } } } } }`,
  );
  console.log(JSON.stringify(res, null, 1).slice(0, 3000));
  assert.equal(res.errors, undefined);
});

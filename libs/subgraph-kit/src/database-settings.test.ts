/** Every subgraph's request connections run with the kit's session settings (JIT off). */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { SUBGRAPH_DATABASE_SETTINGS } from './app';
import { startTestSubgraph, type TestSubgraph } from './testing/test-subgraph';

let subgraph: TestSubgraph;
before(async () => {
  subgraph = await startTestSubgraph('kit_database_settings');
});
after(() => subgraph.close());

test("a request's statements run with JIT off", async () => {
  assert.equal(SUBGRAPH_DATABASE_SETTINGS.jit, 'off');
  const answer = await subgraph.query('{ on: databaseSetting(name: "jit") }');
  assert.equal(answer.errors, undefined, JSON.stringify(answer.errors));
  assert.equal(answer.data.on, 'off');
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { scratchDir } from '@fleetgraph/testing';
import { join } from 'node:path';
import { compose } from './compose';
import { subgraphEntries } from './subgraphs';

const SUBGRAPHS = await subgraphEntries();

test('the subgraphs compose into a supergraph routing each of them', () => {
  const result = compose(SUBGRAPHS);
  assert.ok(result.ok, result.ok ? '' : result.errors.join('\n'));
  for (const s of SUBGRAPHS) assert.match(result.supergraphSdl, new RegExp(`name: "${s.name}"`));
});

test('a composition error is reported, not written', () => {
  const dir = scratchDir('compose');
  writeFileSync(
    join(dir, 'a.graphql'),
    'extend schema @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key"])\ntype Query { account: Account }\ntype Account @key(fields: "id") { id: String! }',
  );
  const result = compose([
    ...SUBGRAPHS,
    { name: 'broken', schemaDir: dir, url: 'http://localhost:1/graphql' },
  ]);
  assert.equal(result.ok, false);
  if (!result.ok)
    assert.ok(
      result.errors.some((e) => /id|account|Account/.test(e)),
      result.errors.join('\n'),
    );
});

/**
 * `npm run compose` writes supergraph.graphql from every subgraph's SDL files;
 * `npm run compose:check` fails when composition fails or the committed file is stale.
 */
import { writeFileSync } from 'node:fs';
import { compose, isStale } from './compose';
import { subgraphEntries, supergraphPath } from './subgraphs';

const check = process.argv.includes('--check');
const result = compose(await subgraphEntries());
const SUPERGRAPH_PATH = supergraphPath();
if (!result.ok) {
  console.error(`composition failed:\n${result.errors.map((e) => `  - ${e}`).join('\n')}`);
  process.exit(1);
}
if (check) {
  if (isStale(SUPERGRAPH_PATH, result.supergraphSdl)) {
    console.error('supergraph.graphql is stale: run `npm run compose` and commit the result');
    process.exit(1);
  }
  console.log('supergraph.graphql is up to date');
} else {
  writeFileSync(SUPERGRAPH_PATH, result.supergraphSdl);
  console.log(`wrote ${SUPERGRAPH_PATH}`);
}

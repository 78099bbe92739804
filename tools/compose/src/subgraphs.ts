/**
 * What is composed into the supergraph: every subgraph found by its manifest (name, SDL folder,
 * default address; the gateway overrides the address with SUBGRAPH_<NAME>_URL), plus the
 * gateway's own local subgraph (the per-login query cache). Nothing here lists subgraphs by hand.
 */
import { join } from 'node:path';
import { repoRoot } from '@fleetgraph/service-kit';
import { loadSubgraphManifests } from '@fleetgraph/subgraphs';

export interface SubgraphEntry {
  name: string;
  schemaDir: string;
  url: string;
}

/**
 * Served by the gateway itself (apps/gateway/src/cache); never fetched over HTTP, the URL only
 * names it.
 */
export const gatewayLocalSubgraph = (root: string = repoRoot): SubgraphEntry => ({
  name: 'gateway',
  schemaDir: join(root, 'apps/gateway/src/cache/schema'),
  url: 'http://localhost:4000/local/gateway',
});

/** The entries to compose for the workspace at `root` (default: this repository). */
export async function subgraphEntries(root: string = repoRoot): Promise<SubgraphEntry[]> {
  const manifests = await loadSubgraphManifests(root);
  const entries = manifests.map((m) => ({
    name: m.name,
    schemaDir: m.schemaDir,
    url: `http://localhost:${m.port}/graphql`,
  }));
  return [...entries, gatewayLocalSubgraph(root)].sort((a, b) => a.name.localeCompare(b.name));
}

export const supergraphPath = (root: string = repoRoot) => join(root, 'supergraph.graphql');

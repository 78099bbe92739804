/**
 * The subgraphs composed into the supergraph: name (as the gateway routes), where its SDL files
 * live, and its default address (the gateway overrides it with SUBGRAPH_<NAME>_URL).
 */
import { join } from 'node:path';
import { repoRoot } from '@fleetgraph/service-kit';

export interface SubgraphEntry {
  name: string;
  schemaDir: string;
  url: string;
}

export const SUBGRAPHS: SubgraphEntry[] = [
  {
    name: 'fleet-core',
    schemaDir: join(repoRoot, 'apps/fleet-core/src/schema'),
    url: 'http://localhost:4001/graphql',
  },
  {
    name: 'vehicle-data',
    schemaDir: join(repoRoot, 'apps/vehicle-data/src/schema'),
    url: 'http://localhost:4005/graphql',
  },
  {
    // Served by the gateway itself (the per-login query cache, apps/gateway/src/cache); never
    // fetched over HTTP, the URL only names it.
    name: 'gateway',
    schemaDir: join(repoRoot, 'apps/gateway/src/cache/schema'),
    url: 'http://localhost:4000/local/gateway',
  },
  {
    name: 'geodecode',
    schemaDir: join(repoRoot, 'apps/geodecode/src/schema'),
    url: 'http://localhost:4006/graphql',
  },
];

export const SUPERGRAPH_PATH = join(repoRoot, 'supergraph.graphql');

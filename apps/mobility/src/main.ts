import { runSubgraph } from '@fleetgraph/subgraph-kit';
import manifest from './manifest';

await runSubgraph(manifest);

export { compose, isStale, type ComposeResult } from './compose';
export { subgraphEntries, supergraphPath, gatewayLocalSubgraph, type SubgraphEntry } from './subgraphs';

export { compose, isStale, type ComposeResult } from './compose';
export { SUBGRAPHS, SUPERGRAPH_PATH, type SubgraphEntry } from './subgraphs';

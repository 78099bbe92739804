export { subgraphFiles, subgraphNames, nextPort, type SubgraphNames } from './subgraph/files';

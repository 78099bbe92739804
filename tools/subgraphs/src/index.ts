export {
  subgraphProjects,
  loadSubgraphManifests,
  loadSubgraphUnits,
  type SubgraphUnit,
  loadManifest,
  subgraphManifest,
  orderByDependencies,
  SUBGRAPH_TAG,
  type SubgraphProject,
} from './registry';

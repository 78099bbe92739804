export {
  renderFiles,
  kustomization,
  IMAGE,
  SECRETS,
  SETTINGS,
  type DeployedSubgraph,
  type K8sObject,
  type RenderedFile,
  type RenderOptions,
} from './kubernetes';
export { deployDir, deployedSubgraphs, renderKubernetes, staleFiles, workspaceTag } from './render';

export { startPlatform, type Platform, type PlatformOptions } from './platform';
export { banner, curlCommands, BANNER_QUERY } from './banner';
export { freePort } from './ports';
export { SUBGRAPH_LAUNCHERS, type SubgraphLauncher } from './subgraphs';

export { startPlatform, type Platform, type PlatformOptions } from './platform';
export { banner, curlCommands, BANNER_QUERY } from './banner';
export { inProcessRunner, processRunner, type RunningService } from './runners';

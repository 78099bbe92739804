export { default as manifest } from './manifest';
export { buildApp, SCHEMA_DIR, type BuildOptions } from './app';
export { loadGeodecodeConfig, type GeodecodeConfig } from './config';
export { GEO_SCHEMA, migrations } from '../migrations/index';
export { seedStreets, streetsPresent } from './demo/seed';
export { demoStreetsGeoJson } from './demo/streets';
export { importStreets, parseStreetsGeoJson, GeoJsonError, type ImportSummary } from './import/geojson';
export { importStreetsFile } from './import/streets';

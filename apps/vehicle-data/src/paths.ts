import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC_DIR = dirname(fileURLToPath(import.meta.url));

/** The folder of this subgraph's SDL files. */
export const SCHEMA_DIR = join(SRC_DIR, 'schema');

/** The app's shipped reference data (`apps/vehicle-data/data`, with its licenses). */
export const DATA_DIR = join(SRC_DIR, '..', 'data');

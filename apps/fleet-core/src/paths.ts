import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder of this subgraph's SDL files. */
export const SCHEMA_DIR = join(dirname(fileURLToPath(import.meta.url)), 'schema');

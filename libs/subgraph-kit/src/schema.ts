import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, type DocumentNode } from 'graphql';

/** The SDL files of a subgraph (`*.graphql` in one folder, in name order) as one document. */
export function loadTypeDefs(schemaDir: string): DocumentNode {
  const files = readdirSync(schemaDir)
    .filter((f) => f.endsWith('.graphql'))
    .sort();
  if (files.length === 0) throw new Error(`no .graphql files in ${schemaDir}`);
  return parse(files.map((f) => readFileSync(join(schemaDir, f), 'utf8')).join('\n'));
}

export function readSdl(schemaDir: string): string {
  return readdirSync(schemaDir)
    .filter((f) => f.endsWith('.graphql'))
    .sort()
    .map((f) => readFileSync(join(schemaDir, f), 'utf8'))
    .join('\n');
}

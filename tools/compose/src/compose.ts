import { existsSync, readFileSync } from 'node:fs';
import { composeServices } from '@apollo/composition';
import { parse } from 'graphql';
import { readSdl } from '@fleetgraph/subgraph-kit';
import type { SubgraphEntry } from './subgraphs';

export type ComposeResult = { ok: true; supergraphSdl: string } | { ok: false; errors: string[] };

export function compose(subgraphs: SubgraphEntry[]): ComposeResult {
  const errors: string[] = [];
  const services = subgraphs.flatMap((s) => {
    if (!existsSync(s.schemaDir)) {
      errors.push(`${s.name}: no schema folder at ${s.schemaDir}`);
      return [];
    }
    try {
      return [{ name: s.name, url: s.url, typeDefs: parse(readSdl(s.schemaDir)) }];
    } catch (error) {
      errors.push(`${s.name}: ${(error as Error).message}`);
      return [];
    }
  });
  if (errors.length > 0) return { ok: false, errors };
  const result = composeServices(services);
  if (result.errors) return { ok: false, errors: result.errors.map((e) => e.message) };
  return { ok: true, supergraphSdl: `${result.supergraphSdl.trimEnd()}\n` };
}

export function isStale(path: string, supergraphSdl: string): boolean {
  return !existsSync(path) || readFileSync(path, 'utf8') !== supergraphSdl;
}

/**
 * The supergraph file, hot-reloaded. ApolloGateway takes it through its `supergraphSdl` function:
 * the file is read at start, then its folder is watched (a file replaced by rename, or a
 * Kubernetes ConfigMap's symlink swap, is seen too) and every change of content is handed to
 * ApolloGateway's `update`. A file that does not parse or is not a valid supergraph is logged and
 * the running schema is kept. Requests in flight finish on the schema they started with: the
 * gateway swaps its schema and query planner for new requests only.
 */
import { readFileSync, watch, type FSWatcher } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { SupergraphSdlHook } from '@apollo/gateway';
import type { FastifyBaseLogger } from 'fastify';
import { parse } from 'graphql';
import { fieldCostsOf, type FieldCosts } from '@fleetgraph/query-limits';

export interface SubgraphEndpoint {
  name: string;
  url: string;
}

export interface SupergraphSource {
  /** For ApolloGateway's `supergraphSdl` option. */
  hook: SupergraphSdlHook;
  /** The subgraphs of the schema being served (name as in the supergraph, URL as declared there). */
  subgraphs(): SubgraphEndpoint[];
  /** The declared page sizes and weights of the schema being served (`@paged`, `@cost`). */
  costs(): FieldCosts;
  /** Reads the file now and applies it if it changed; true when the served schema changed. */
  reload(): Promise<boolean>;
}

export interface SupergraphSourceOptions {
  path: string;
  log: FastifyBaseLogger;
  /** Watch the file (default true). */
  watch?: boolean;
  /** Quiet time after a change event before reading the file (default 100 ms). */
  debounceMs?: number;
}

const JOIN_GRAPH = /@join__graph\(\s*name:\s*"([^"]+)"\s*,\s*url:\s*"([^"]*)"\s*\)/g;

/** The subgraphs a supergraph SDL declares (`enum join__Graph { X @join__graph(name:, url:) }`). */
export function subgraphsOf(supergraphSdl: string): SubgraphEndpoint[] {
  return [...supergraphSdl.matchAll(JOIN_GRAPH)].map((m) => ({ name: m[1] as string, url: m[2] as string }));
}

export function createSupergraphSource(options: SupergraphSourceOptions): SupergraphSource {
  const { path, log } = options;
  let current = readFileSync(path, 'utf8');
  let subgraphs = subgraphsOf(current);
  let costs = costsOf(current);
  let update: ((sdl: string) => void) | undefined;
  let reloading: Promise<boolean> | undefined;

  async function apply(): Promise<boolean> {
    let sdl: string;
    try {
      sdl = await readFile(path, 'utf8');
    } catch (error) {
      log.error(
        { path, error: (error as Error).message },
        'supergraph file unreadable: keeping the current schema',
      );
      return false;
    }
    if (sdl === current || !update) return false;
    try {
      update(sdl);
    } catch (error) {
      log.error(
        { path, error: (error as Error).message },
        'supergraph file rejected: keeping the current schema',
      );
      // Not retried until the content changes again.
      current = sdl;
      return false;
    }
    current = sdl;
    subgraphs = subgraphsOf(sdl);
    costs = costsOf(sdl);
    log.info({ path, subgraphs: subgraphs.map((s) => s.name) }, 'supergraph reloaded');
    return true;
  }

  // One read at a time; a change during a read triggers one more.
  let again = false;
  function reload(): Promise<boolean> {
    if (reloading) {
      again = true;
      return reloading;
    }
    reloading = apply().finally(() => {
      reloading = undefined;
      if (again) {
        again = false;
        void reload();
      }
    });
    return reloading;
  }

  const hook: SupergraphSdlHook = async ({ update: gatewayUpdate }) => {
    update = gatewayUpdate;
    let watcher: FSWatcher | undefined;
    let timer: NodeJS.Timeout | undefined;
    if (options.watch !== false) {
      watcher = watch(dirname(path), { persistent: false }, () => {
        clearTimeout(timer);
        timer = setTimeout(() => void reload(), options.debounceMs ?? 100);
      });
      watcher.on('error', (error) => log.error({ path, error: error.message }, 'supergraph watch failed'));
    }
    return {
      supergraphSdl: current,
      async cleanup() {
        clearTimeout(timer);
        watcher?.close();
        update = undefined;
      },
    };
  };

  return { hook, subgraphs: () => subgraphs, costs: () => costs, reload };
}

/** A supergraph's declared costs; none when its text does not parse (the gateway refuses it too). */
function costsOf(sdl: string): FieldCosts {
  try {
    return fieldCostsOf(parse(sdl));
  } catch {
    return new Map();
  }
}

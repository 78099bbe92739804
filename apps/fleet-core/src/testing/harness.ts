/** fleet-core on a throwaway database with its fixtures loaded (the shared subgraph harness). */
import { startSubgraphHarness, type SubgraphHarness } from '@fleetgraph/subgraph-kit/testing';
import manifest from '../manifest';
import { loadFixture } from './fixture';
import { loadServicesFixture } from './services-fixture';

export type Harness = SubgraphHarness;

export function startHarness(label: string, env: Record<string, string> = {}): Promise<Harness> {
  return startSubgraphHarness(manifest, {
    label,
    env,
    seed: async (knex) => {
      await loadFixture(knex);
      await loadServicesFixture(knex);
    },
  });
}

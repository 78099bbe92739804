/**
 * vehicle-data's tests on the shared harness (startSubgraphHarness: throwaway database, fleet-core
 * migrated with its test fixture, test issuer). This file only adds what is vehicle-data's own:
 * the demo rows through the manifest's demoData hook, and real VINs and plates on two of the
 * fixture's vehicles, so that decoding a fleet vehicle's VIN or plate has a known answer.
 */
import type { Knex } from '@fleetgraph/db';
import { startSubgraphHarness, type SubgraphHarness } from '@fleetgraph/subgraph-kit/testing';
import type { TestUser } from '@fleetgraph/testing';
import manifest from '../manifest';

/** The instant the tests' demo data is built around (the hook ignores it today; injected anyway). */
export const TEST_NOW = new Date('2026-11-23T00:00:00Z');

/** fleet-core's fixture facts vehicle-data's tests use (apps/fleet-core/src/testing/fixture.ts). */
interface FleetFacts {
  alice: TestUser;
  carol: TestUser;
  vehicles: { depot: string[] };
  depotDevices: string[];
}

/**
 * Identities of two of fleet-core's fixture vehicles, both in North Depot (alice sees them from
 * Acme HQ; carol, of Globex, does not). fleet-core's fixture gives every vehicle a made-up Renault
 * Master VIN; these tests need VINs vPIC and the WMI table know.
 */
export const REAL_VEHICLES = {
  accord: {
    vin: '1HGCM82633A004352',
    plate: 'AB-123-CD',
    make: 'Honda',
    model: 'Accord',
    model_year: 2003,
    fuel_type: 'GASOLINE',
  },
  golf: {
    vin: 'WVWZZZ1JZXW000001',
    plate: 'B-MW 1234',
    make: 'Volkswagen',
    model: 'Golf',
    model_year: 1999,
    fuel_type: 'GASOLINE',
  },
};

export interface Harness extends SubgraphHarness {
  /** Sees all of Acme, so both vehicles of REAL_VEHICLES (fleet-core fixture's alice). */
  alice: TestUser;
  /** Another organization: sees none of Acme's vehicles or devices (fleet-core fixture's carol). */
  mallory: TestUser;
  /** fleet ids of the REAL_VEHICLES */
  vehicles: { accord: string; golf: string };
  /** The device plugged into the Accord now (North Depot). */
  device: string;
}

export async function startHarness(label: string, env: Record<string, string> = {}): Promise<Harness> {
  const h = await startSubgraphHarness(manifest, {
    label,
    env,
    seed: async (knex, facts) => {
      await manifest.demoData!.seed(knex, { log: () => {}, progress: false, now: TEST_NOW, scale: 1 });
      await giveRealIdentities(knex, facts['fleet-core'] as FleetFacts);
    },
  });
  const fleet = h.facts['fleet-core'] as FleetFacts;
  const [accord, golf] = fleet.vehicles.depot as [string, string];
  return Object.assign(h, {
    alice: fleet.alice,
    mallory: fleet.carol,
    vehicles: { accord, golf },
    device: fleet.depotDevices[0]!,
  });
}

/**
 * The tests' own fixture rows: the first two North Depot vehicles of fleet-core's fixture become
 * the Accord and the Golf of REAL_VEHICLES (the first depot device is plugged into the Accord).
 * This is test setup writing fleet-core's fixture data directly; vehicle-data's code only reads
 * the fleet through fleet_contract views.
 */
async function giveRealIdentities(knex: Knex, fleet: FleetFacts): Promise<void> {
  const [accord, golf] = fleet.vehicles.depot;
  await knex('fleet.vehicles').where('id', accord).update(REAL_VEHICLES.accord);
  await knex('fleet.vehicles').where('id', golf).update(REAL_VEHICLES.golf);
}

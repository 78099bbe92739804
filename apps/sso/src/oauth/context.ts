import type { Knex } from '@fleetgraph/db';
import type { SsoConfig } from '../config';
import type { KeyStore } from '../keys';

/** What every endpoint check and grant works with. */
export interface OAuthContext {
  knex: Knex;
  keys: KeyStore;
  config: SsoConfig;
}

/** Token endpoint parameters: one string per name (see checks/params.ts). */
export type TokenParams = Record<string, string>;

/** The client a request speaks for; null when none was named (password grant of a script). */
export interface ClientIdentity {
  clientId: string | null;
}

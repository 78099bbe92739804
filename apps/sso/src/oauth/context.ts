import type { FastifyBaseLogger } from 'fastify';
import type { RevocationList } from '@fleetgraph/auth';
import type { Knex } from '@fleetgraph/db';
import type { SsoConfig } from '../config';
import type { ApplicationCache } from '../data/application-cache';
import type { ApplicationWithSecret } from '../data/applications';
import type { RotationBatcher } from '../data/refresh-rotation';
import type { KeyStore } from '../keys';

/** What every endpoint check and grant works with. */
export interface OAuthContext {
  knex: Knex;
  keys: KeyStore;
  config: SsoConfig;
  /** Shared list of revoked access-token ids (the gateway reads it). */
  revocations: RevocationList;
  /** Batched fast refresh-token rotation (data/refresh-rotation.ts). */
  rotations: RotationBatcher;
  log: FastifyBaseLogger;
  /** Applications by client id, cached a few seconds (data/application-cache.ts). */
  applications?: ApplicationCache;
  /** How a progressive delay waits (tests record it instead of waiting). */
  sleep?: (ms: number) => Promise<void>;
}

/** Token endpoint parameters: one string per name (see checks/params.ts). */
export type TokenParams = Record<string, string>;

/**
 * The client a request speaks for, authenticated (checks/client.ts); both null when none was
 * named (password grant of a script).
 */
export interface ClientIdentity {
  clientId: string | null;
  application: ApplicationWithSecret | null;
}

/** Facts about the HTTP request a grant may need (throttling, audit). */
export interface RequestMeta {
  ip: string;
}

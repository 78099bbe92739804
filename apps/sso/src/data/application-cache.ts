/**
 * The applications the token endpoint authenticates, cached in this process for a few seconds: a
 * confidential client refreshing tokens costs no query per request, which would otherwise be a
 * large share of a refresh's CPU and database time. Every change to an application,
 * by whatever process (pages, admin CLI, another SSO), is announced by the database
 * (migration 20261124_005) and drops the entry as soon as PostgreSQL delivers the
 * notification (milliseconds; this SSO's own edits invalidate synchronously): a rotated secret or
 * a deleted application is refused from then on, and a new secret is accepted at once (a
 * mismatching cached row is read again, oauth/checks/client.ts). While the announcements cannot be followed (the
 * listening connection is down), nothing is cached. Entries also expire after `ttlMs` (5 s).
 * Unknown client ids are not cached (nothing to gain, and a flood of them must not evict).
 */
import type { Knex } from '@fleetgraph/db';
import { LRUCache } from 'lru-cache';
import pg from 'pg';
import { APPLICATION_CHANNEL } from '../../migrations/20261124_005_application_changes';
import { findApplication, type ApplicationWithSecret } from './applications';

export const APPLICATION_CACHE_MS = 5_000;

export interface ApplicationCache {
  find(clientId: string): Promise<ApplicationWithSecret | undefined>;
  invalidate(clientId: string): void;
  close(): Promise<void>;
}

/** Follows the announcements; `listening` is false while they cannot be followed. */
function followChanges(databaseUrl: string, onChange: (clientId: string) => void, onLost: () => void) {
  const state = { listening: false, closed: false, client: undefined as pg.Client | undefined };
  const connect = async (): Promise<void> => {
    const client = new pg.Client({ connectionString: databaseUrl, application_name: 'sso-applications' });
    const lost = () => {
      state.listening = false;
      onLost();
      void client.end().catch(() => {});
      if (!state.closed) setTimeout(() => void connect(), 1_000).unref();
    };
    client.on('notification', (message) => message.payload && onChange(message.payload));
    client.on('error', lost);
    try {
      await client.connect();
      await client.query(`listen ${APPLICATION_CHANNEL}`);
      if (state.closed) return void (await client.end());
      state.client = client;
      state.listening = true;
    } catch {
      lost();
    }
  };
  const ready = connect();
  return {
    state,
    ready,
    async close() {
      state.closed = true;
      await ready;
      await state.client?.end().catch(() => {});
    },
  };
}

export function createApplicationCache(
  knex: Knex,
  options: {
    databaseUrl: string;
    ttlMs?: number;
    now?: () => number;
    max?: number;
    /** Called when an announced change dropped a client (tests wait on it). */
    onAnnounced?: (clientId: string) => void;
  },
): ApplicationCache {
  const ttlMs = options.ttlMs ?? APPLICATION_CACHE_MS;
  const now = options.now ?? Date.now;
  const cache = new LRUCache<string, { application: ApplicationWithSecret; at: number }>({
    max: options.max ?? 10_000,
  });
  const changes = followChanges(
    options.databaseUrl,
    (clientId) => {
      cache.delete(clientId);
      options.onAnnounced?.(clientId);
    },
    () => cache.clear(),
  );
  return {
    async find(clientId) {
      await changes.ready;
      const cached = cache.get(clientId);
      if (cached && now() - cached.at < ttlMs && changes.state.listening) return cached.application;
      const application = await findApplication(knex, clientId);
      if (application && ttlMs > 0 && changes.state.listening)
        cache.set(clientId, { application, at: now() });
      else cache.delete(clientId);
      return application;
    },
    invalidate: (clientId) => void cache.delete(clientId),
    close: () => changes.close(),
  };
}

/**
 * The tenant of a caller: the organization its account belongs to, which the graph itself answers
 * (`account { organizationId }`, a field of the spec). It is the unit of the organization budget
 * and of fair queuing at the subgraphs. Asked once per user and kept `ttlMs`; concurrent first
 * requests of one user share one lookup. When the lookup fails (the account's subgraph is away, the
 * account has no organization), the user is its own tenant for `failureTtlMs`: fairness between
 * users still holds, and the lookup is tried again soon.
 */
import { LRUCache } from 'lru-cache';

export interface TenantDirectory {
  /** `org:<organizationId>`, or `user:<uid>` when the organization is unknown. */
  tenantOf(uid: string, lookup: () => Promise<string | null>): Promise<string>;
}

export interface TenantDirectoryOptions {
  ttlMs: number;
  failureTtlMs?: number;
  /** Users remembered (default 100 000). */
  max?: number;
  now?: () => number;
  onError?: (error: unknown) => void;
}

interface Entry {
  tenant: string;
  until: number;
}

export const userTenant = (uid: string) => `user:${uid}`;
export const organizationTenant = (organizationId: string) => `org:${organizationId}`;

export function createTenantDirectory(options: TenantDirectoryOptions): TenantDirectory {
  const now = options.now ?? Date.now;
  const failureTtlMs = options.failureTtlMs ?? 30_000;
  const known = new LRUCache<string, Entry>({ max: options.max ?? 100_000 });
  const pending = new Map<string, Promise<string>>();

  async function resolve(uid: string, lookup: () => Promise<string | null>): Promise<string> {
    try {
      const organizationId = await lookup();
      if (organizationId) {
        const tenant = organizationTenant(organizationId);
        known.set(uid, { tenant, until: now() + options.ttlMs });
        return tenant;
      }
    } catch (error) {
      options.onError?.(error);
    }
    known.set(uid, { tenant: userTenant(uid), until: now() + failureTtlMs });
    return userTenant(uid);
  }

  return {
    tenantOf(uid, lookup) {
      const entry = known.get(uid);
      if (entry && entry.until > now()) return Promise.resolve(entry.tenant);
      let asking = pending.get(uid);
      if (!asking) {
        asking = resolve(uid, lookup).finally(() => pending.delete(uid));
        pending.set(uid, asking);
      }
      return asking;
    },
  };
}

/** The query the gateway asks, with the caller's own token, for the caller's organization. */
export const TENANT_QUERY = '{ account { organizationId } }';

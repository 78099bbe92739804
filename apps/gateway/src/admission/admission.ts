/**
 * Admission to one subgraph: how many calls the gateway has in flight to it, and who waits when it
 * is full. The unit of fairness is the tenant (the caller's organization):
 * - at most `maxInFlight` calls in flight to the subgraph, and at most `tenantMaxInFlight` of them
 *   for one tenant, so one organization's burst never holds every slot;
 * - a call that cannot go waits in its tenant's queue; a freed slot goes to the next tenant in
 *   turn (round robin over tenants with waiting calls), so a tenant with a long queue waits behind
 *   its own calls, not ahead of everyone else's;
 * - queues are bounded, per tenant (`tenantQueueMax`) and in all (`queueMax`): past them a call is
 *   refused at once (SUBGRAPH_BUSY, retryable) rather than left to time out;
 * - a waiting call whose deadline passes, or whose client went away, leaves its queue.
 */

/** What a call waits with: the call's deadline, which also fires when its client goes away. */
export interface WaitSignal {
  readonly aborted: boolean;
  readonly reason?: unknown;
  once(event: 'abort', listener: () => void): unknown;
  off(event: 'abort', listener: () => void): unknown;
}

export interface AdmissionLimits {
  maxInFlight: number;
  tenantMaxInFlight: number;
  queueMax: number;
  tenantQueueMax: number;
}

/** The queue was full: the call was not sent. */
export class AdmissionRefused extends Error {
  constructor(readonly scope: 'tenant' | 'subgraph') {
    super(scope === 'tenant' ? "the tenant's queue is full" : "the subgraph's queue is full");
    this.name = 'AdmissionRefused';
  }
}

export interface Admission {
  /** Resolves with the release of the slot once the call may go; rejects when refused or aborted. */
  enter(tenant: string, signal: WaitSignal): Promise<() => void>;
  /** Calls in flight and waiting (metrics, tests). */
  load(): { inFlight: number; queued: number };
}

interface Waiter {
  admit(): void;
}

interface Tenant {
  inFlight: number;
  waiting: Waiter[];
}

export function createAdmission(limits: AdmissionLimits): Admission {
  const tenants = new Map<string, Tenant>();
  /** Tenants with waiting calls, in turn order. */
  const turns: string[] = [];
  let inFlight = 0;
  let queued = 0;

  const tenantOf = (name: string): Tenant => {
    let tenant = tenants.get(name);
    if (!tenant) {
      tenant = { inFlight: 0, waiting: [] };
      tenants.set(name, tenant);
    }
    return tenant;
  };

  const forget = (name: string, tenant: Tenant) => {
    if (tenant.inFlight === 0 && tenant.waiting.length === 0) tenants.delete(name);
  };

  const occupy = (name: string, tenant: Tenant): (() => void) => {
    inFlight += 1;
    tenant.inFlight += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      inFlight -= 1;
      tenant.inFlight -= 1;
      forget(name, tenant);
      dispatch();
    };
  };

  /** Hands free slots to waiting calls, one tenant after another. */
  function dispatch(): void {
    let scanned = 0;
    while (inFlight < limits.maxInFlight && turns.length > 0 && scanned < turns.length) {
      const name = turns.shift()!;
      const tenant = tenants.get(name);
      if (!tenant || tenant.waiting.length === 0) continue;
      if (tenant.inFlight >= limits.tenantMaxInFlight) {
        turns.push(name);
        scanned += 1;
        continue;
      }
      scanned = 0;
      const waiter = tenant.waiting.shift()!;
      queued -= 1;
      if (tenant.waiting.length > 0) turns.push(name);
      waiter.admit();
    }
  }

  function enter(name: string, signal: WaitSignal): Promise<() => void> {
    if (signal.aborted) return Promise.reject(signal.reason);
    const tenant = tenantOf(name);
    if (inFlight < limits.maxInFlight && tenant.inFlight < limits.tenantMaxInFlight)
      return Promise.resolve(occupy(name, tenant));
    if (tenant.waiting.length >= limits.tenantQueueMax || queued >= limits.queueMax) {
      forget(name, tenant);
      return Promise.reject(
        new AdmissionRefused(tenant.waiting.length >= limits.tenantQueueMax ? 'tenant' : 'subgraph'),
      );
    }
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        const at = tenant.waiting.indexOf(waiter);
        if (at < 0) return;
        tenant.waiting.splice(at, 1);
        queued -= 1;
        const turn = tenant.waiting.length === 0 ? turns.indexOf(name) : -1;
        if (turn >= 0) turns.splice(turn, 1);
        forget(name, tenant);
        reject(signal.reason);
      };
      const waiter: Waiter = {
        admit() {
          signal.off('abort', onAbort);
          resolve(occupy(name, tenant));
        },
      };
      if (tenant.waiting.length === 0) turns.push(name);
      tenant.waiting.push(waiter);
      queued += 1;
      signal.once('abort', onAbort);
    });
  }

  return { enter, load: () => ({ inFlight, queued }) };
}

/**
 * The bookkeeping of the query cache's near cache (near-cache.ts): Redis values this process has
 * read, held while Redis tracks them for it. No I/O here; near-cache.ts feeds it Redis's
 * invalidation messages and its connection states.
 *
 * Rules:
 * - nothing is served unless tracking is on (`track`), and everything is forgotten when it is
 *   lost (`lose`): without Redis's invalidation messages a held value could be stale forever;
 * - a value read is held only if no invalidation of its key arrived while it was being read, and
 *   tracking stayed on through the same session: Redis may send the invalidation of a write that
 *   followed the read before the read's reply is handled (the race of Redis's client-side caching
 *   documentation), and a read sent before tracking was on is not tracked at all;
 * - a value is served until its own expiry (the key's time to live when read, on this process's
 *   clock): Redis's invalidation of an expired key only comes once Redis reclaims it;
 * - this process's own writes drop their keys at once (`drop`), before Redis's message arrives;
 * - bounded by bytes (keys and values), least recently used first.
 */
import { LRUCache } from 'lru-cache';

export interface NearTableOptions {
  maxBytes: number;
  /** Clock in ms (tests move it). */
  now?: () => number;
}

/** A read about to be sent to Redis (from `begin`), handed back to `end` with what it read. */
export interface NearRead {
  keys: string[];
  session: number;
  tracked: boolean;
}

/** What Redis answered for one key of a read: its value (null: none) and time to live in ms (-1: none). */
export interface ReadValue {
  value: string | null;
  ttlMs: number;
}

export interface NearTable {
  /** The value held for `key`, if tracking is on and it has not expired. */
  get(key: string): string | undefined;
  /** Starts a read of `keys`. */
  begin(keys: string[]): NearRead;
  /** Ends a read: holds what it read, unless an invalidation or a lost session came meanwhile. */
  end(read: NearRead, values: ReadValue[] | undefined): void;
  /** Redis invalidated these keys (null: every key, as after FLUSHALL). */
  invalidate(keys: string[] | null): void;
  /** This process wrote these keys. */
  drop(keys: string[]): void;
  /** Tracking is on from now (a new session). */
  track(): void;
  /** Tracking is lost: everything is forgotten and nothing is served until `track`. */
  lose(): void;
  readonly tracking: boolean;
  readonly size: number;
}

interface Held {
  value: string;
  expiresAt: number;
}

export function createNearTable(options: NearTableOptions): NearTable {
  const now = options.now ?? Date.now;
  const held = new LRUCache<string, Held>({
    maxSize: options.maxBytes,
    sizeCalculation: (entry, key) => Math.max(1, (entry.value.length + key.length) * 2),
  });
  /** Reads in flight per key, and the keys invalidated while one was. */
  const reading = new Map<string, number>();
  const touched = new Set<string>();
  let session = 0;
  let tracking = false;

  const forget = (key: string) => {
    held.delete(key);
    if (reading.has(key)) touched.add(key);
  };
  const forgetAll = () => {
    held.clear();
    for (const key of reading.keys()) touched.add(key);
  };
  const keep = (key: string, read: ReadValue) => {
    if (read.value === null || read.ttlMs === -2 || read.ttlMs === 0) return;
    const expiresAt = read.ttlMs > 0 ? now() + read.ttlMs : Number.POSITIVE_INFINITY;
    // An entry larger than maxBytes is refused by the LRU itself (maxEntrySize defaults to maxSize).
    held.set(key, { value: read.value, expiresAt });
  };
  const finish = (key: string) => {
    const left = (reading.get(key) ?? 1) - 1;
    if (left > 0) return void reading.set(key, left);
    reading.delete(key);
    touched.delete(key);
  };

  return {
    get(key) {
      if (!tracking) return undefined;
      const entry = held.get(key);
      if (!entry) return undefined;
      if (entry.expiresAt > now()) return entry.value;
      held.delete(key);
      return undefined;
    },
    begin(keys) {
      for (const key of keys) reading.set(key, (reading.get(key) ?? 0) + 1);
      return { keys, session, tracked: tracking };
    },
    end(read, values) {
      const current = read.tracked && tracking && read.session === session;
      read.keys.forEach((key, i) => {
        const value = values?.[i];
        if (current && value && !touched.has(key)) keep(key, value);
        finish(key);
      });
    },
    invalidate(keys) {
      if (keys === null) forgetAll();
      else for (const key of keys) forget(key);
    },
    drop(keys) {
      for (const key of keys) forget(key);
    },
    track() {
      session++;
      tracking = true;
    },
    lose() {
      session++;
      tracking = false;
      forgetAll();
    },
    get tracking() {
      return tracking;
    },
    get size() {
      return held.size;
    },
  };
}

/**
 * The near cache of the Redis query cache store: the scope epochs and entries this gateway has
 * read from Redis, held in this process while Redis tracks them for it (server-assisted
 * client-side caching, `CLIENT TRACKING ... REDIRECT`), so a repeated hit costs no round trip.
 * Without it, writing the MGET to Redis is a large part of what a cache hit costs.
 *
 * Rules (the bookkeeping is near-table.ts):
 * - a second connection subscribes to `__redis__:invalidate`; the store's connection turns
 *   tracking on with that connection as its redirect. From then on, Redis sends the name of every
 *   key this gateway has read once that key changes (written by another gateway, flushed,
 *   expired, evicted) and the value held for it is dropped. This gateway's own writes drop their
 *   keys as they are sent (NOLOOP: Redis does not echo them); a read sent before such a write, on
 *   the same connection, is not held;
 * - either connection closing loses tracking (everything held is forgotten, nothing is served
 *   from here); when both are back, tracking is turned on again on the new connections.
 *   Subscribing or turning tracking on that fails (a timed-out command under load) is tried again
 *   after 1 s, doubling to 30 s;
 * - a flush or softFlush through this gateway applies here at once; through another gateway, as
 *   soon as Redis's message reaches this one (one message on a held connection, sent by Redis
 *   before it answers the flush);
 * - the store's values keep their own expiry: a held entry is not served past its time to live.
 */
import type { Redis } from 'ioredis';
import { createNearTable, type NearTable, type ReadValue } from './near-table';

const INVALIDATE_CHANNEL = '__redis__:invalidate';

export interface NearCacheOptions {
  maxBytes: number;
  /** Name of the invalidation connection (CLIENT LIST shows it to operators). */
  connectionName?: string;
  onError: (error: unknown, operation: string) => void;
  /** Clock in ms (tests move it). */
  now?: () => number;
  /** Each lookup answered from here (metrics, tests), and each invalidation message (tests). */
  onHit?: () => void;
  onInvalidated?: (keys: string[] | null) => void;
  /** Tracking turned on (true) or lost (false) (metrics, tests). */
  onTracking?: (on: boolean) => void;
  /**
   * Runs `retry` after `ms` and answers its cancel (default: an unref'd setTimeout). Tests run it
   * at once and read the waits asked for.
   */
  later?: (retry: () => void, ms: number) => () => void;
}

/** The wait before subscribing or turning tracking on again: 1 s, doubling up to 30 s. */
const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;

function unrefTimer(run: () => void, ms: number): () => void {
  const timer = setTimeout(run, ms);
  timer.unref();
  return () => clearTimeout(timer);
}

export interface NearCache {
  /**
   * A scope's epoch and an entry (null: none): from this process when it holds both, else one
   * round trip (MGET and the entry's PTTL, pipelined) whose answers it holds while Redis tracks them.
   */
  read(epochKey: string, entryKey: string): Promise<(string | null)[]>;
  /** This gateway is about to write these keys. */
  drop(keys: string[]): void;
  close(): Promise<void>;
}

/** Keys of an invalidation message: an array of key names, or null for "every key". */
function invalidatedKeys(message: unknown): string[] | null {
  return Array.isArray(message) ? message.map((key) => String(key)) : null;
}

export function createNearCache(redis: Redis, options: NearCacheOptions): NearCache {
  const table: NearTable = createNearTable({ maxBytes: options.maxBytes, now: options.now });
  // RESP2 on this connection: Redis then sends invalidations as messages of the
  // __redis__:invalidate channel, which ioredis delivers (it drops RESP3 `invalidate` pushes).
  const listener = redis.duplicate({
    protocol: 2,
    autoResubscribe: false,
    enableOfflineQueue: false,
    connectionName: options.connectionName ?? 'fleetgraph-query-cache-near',
  });
  /** This listener connection's CLIENT ID, once asked; and once it is subscribed (the redirect). */
  let connectionId: string | undefined;
  let listenerId: string | undefined;
  /** Renewed each time the listener connection closes: an answer from before is not used. */
  let listenerSession = 0;
  let closing = false;
  let turningOn = false;
  const later = options.later ?? unrefTimer;
  let retryMs = FIRST_RETRY_MS;
  let cancelRetry: (() => void) | undefined;

  const lose = () => {
    if (table.tracking) options.onTracking?.(false);
    table.lose();
  };
  /**
   * The listener's id once it is subscribed to the invalidation channel. Each step is asked once
   * per connection: after a SUBSCRIBE that timed out on this side (it may have reached Redis), the
   * connection may be in subscriber mode, where CLIENT ID is refused, so the id is kept.
   */
  const subscribedListener = async (): Promise<string> => {
    if (listenerId !== undefined) return listenerId;
    const session = listenerSession;
    const replaced = () => new Error('the invalidation connection was replaced meanwhile');
    const id = connectionId ?? String(await listener.client('ID'));
    if (session !== listenerSession) throw replaced();
    connectionId = id;
    await listener.subscribe(INVALIDATE_CHANNEL);
    if (session !== listenerSession) throw replaced();
    return (listenerId = id);
  };
  /**
   * Subscribes the listener and turns tracking on, once both connections are ready. Either step
   * failing (a timed-out command under load: a gateway composing its schema blocks its event loop
   * past the command timeout) is tried again: no connection event would bring tracking back, and
   * held values need it.
   */
  const trackWhenReady = async () => {
    if (closing || turningOn || table.tracking || listener.status !== 'ready' || redis.status !== 'ready')
      return;
    turningOn = true;
    let operation = 'near cache subscription';
    try {
      const id = await subscribedListener();
      operation = 'near cache tracking';
      // NOLOOP: no message for this gateway's own writes, which drop their keys as they are sent.
      await redis.client('TRACKING', 'ON', 'REDIRECT', id, 'NOLOOP');
      if (id === listenerId && redis.status === 'ready' && !table.tracking && !closing) {
        table.track();
        options.onTracking?.(true);
      }
      retryMs = FIRST_RETRY_MS;
    } catch (error) {
      options.onError(error, operation);
      retryTracking();
    } finally {
      turningOn = false;
    }
  };
  function retryTracking() {
    if (closing || cancelRetry) return;
    cancelRetry = later(() => {
      cancelRetry = undefined;
      void trackWhenReady();
    }, retryMs);
    retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
  }

  listener.on('ready', () => void trackWhenReady());
  listener.on('close', () => {
    listenerSession++;
    connectionId = undefined;
    listenerId = undefined;
    lose();
  });
  listener.on('error', () => {}); // reported through the store's own connection
  listener.on('messageBuffer', (channel: Buffer, message: unknown) => {
    if (channel.toString() !== INVALIDATE_CHANNEL) return;
    const keys = invalidatedKeys(message);
    table.invalidate(keys);
    options.onInvalidated?.(keys);
  });
  redis.on('ready', () => void trackWhenReady());
  redis.on('close', lose);

  async function read(epochKey: string, entryKey: string): Promise<(string | null)[]> {
    const epoch = table.get(epochKey);
    const entry = epoch === undefined ? undefined : table.get(entryKey);
    if (epoch !== undefined && entry !== undefined) {
      options.onHit?.();
      return [epoch, entry];
    }
    const started = table.begin([epochKey, entryKey]);
    let values: ReadValue[] | undefined;
    try {
      const answers = await redis.pipeline().mget(epochKey, entryKey).pttl(entryKey).exec();
      const failed = answers?.find(([error]) => error)?.[0];
      if (!answers || failed) throw failed ?? new Error('pipeline was not run');
      const [stored = null, raw = null] = answers[0]![1] as (string | null)[];
      values = [
        { value: stored, ttlMs: -1 },
        { value: raw, ttlMs: Number(answers[1]![1]) },
      ];
      return [stored, raw];
    } finally {
      table.end(started, values);
    }
  }

  return {
    read,
    drop: (keys) => table.drop(keys),
    async close() {
      closing = true;
      cancelRetry?.();
      redis.off('close', lose);
      lose();
      if (listener.status === 'ready') await listener.quit().catch(() => listener.disconnect());
      else listener.disconnect();
    },
  };
}

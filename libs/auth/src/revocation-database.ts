/**
 * The revocation list every verifier keeps in memory, fed by the database: the SSO's rows are the
 * truth (sso.access_tokens.revoked_at), published as the read-only view
 * `sso_contract.revoked_access_tokens_v1` and announced on the `fleetgraph_revocations` channel by
 * a trigger, whatever path revoked the token (token endpoint, /oauth/revoke, rotation, pages,
 * admin CLI in another process).
 * - At start: LISTEN first, then load every unexpired revocation from the view, so nothing
 *   announced in between is missed; a restarted verifier therefore refuses what was revoked
 *   before it started.
 * - Then each announcement (`<jti> <exp>`) is a hint, never the truth: any role of the database
 *   may NOTIFY on any channel (PostgreSQL has no per-channel privilege, so the channel cannot be
 *   kept to the SSO's role), so the verifier looks the announced ids up in the view (batched: one
 *   statement for every hint that arrived meanwhile) and adds those the SSO really revoked, with
 *   the expiry the view gives, never the announced one. A revocation still reaches every
 *   verifier in a notification and a lookup (milliseconds); a forged one is dropped. A flood of
 *   hints beyond MAX_PENDING_HINTS is answered by one reload of the view instead.
 * - A lost connection is re-opened with backoff and the view loaded again (what was announced
 *   while away is in the view).
 * - isRevoked is a Map lookup (no round trip per request). It waits for the first load, so a
 *   verifier never accepts a token in the gap between its start and its first read; if that read
 *   fails, it answers from what it has (logged, retried) rather than refusing every token.
 * - Entries leave at the token's expiry (the injected clock), and never later than now plus
 *   MAX_ACCESS_TOKEN_TTL_S (no token lives longer): the list never outgrows live tokens.
 */
import pg from 'pg';
import type { RevocationList } from './revocation';

export const REVOCATIONS_VIEW = 'sso_contract.revoked_access_tokens_v1';
export const REVOCATIONS_CHANNEL = 'fleetgraph_revocations';

/** The longest an access token may live (the SSO's ACCESS_TOKEN_TTL is bounded by it): a day. */
export const MAX_ACCESS_TOKEN_TTL_S = 86_400;

/** Hints waiting for their lookup beyond which the view is read whole instead. */
export const MAX_PENDING_HINTS = 10_000;

/** Ids looked up in one statement. */
const HINTS_PER_LOOKUP = 1_000;

export interface DatabaseRevocationOptions {
  databaseUrl: string;
  /** The published view (`jti`, `expires_at`); default REVOCATIONS_VIEW. */
  view?: string;
  /** The notification channel; default REVOCATIONS_CHANNEL. */
  channel?: string;
  /** The clock, in epoch ms (default Date.now). */
  now?: () => number;
  onError?: (error: unknown, operation: string) => void;
  /** First reconnect delay in ms (doubling up to 10 s); default 250. */
  reconnectMs?: number;
  /** Called after the view was (re)loaded or an announcement added (tests wait on it). */
  onChange?: () => void;
}

export interface DatabaseRevocationList extends RevocationList {
  /** Resolves once the view has been read since the last (re)connection. */
  synced(): Promise<void>;
  /** Resolves once every announcement received so far has been looked up. */
  confirmed(): Promise<void>;
  /** How many revocations are kept in memory. */
  size(): number;
}

const QUALIFIED = /^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)?$/;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The token id an announcement names (`<jti> <exp>`; the SSO's ids are UUIDs), if it names one. */
function announcedJti(payload: string | undefined): string | undefined {
  const jti = (payload ?? '').split(' ', 1)[0]!;
  return UUID.test(jti) ? jti.toLowerCase() : undefined;
}

export function createDatabaseRevocationList(options: DatabaseRevocationOptions): DatabaseRevocationList {
  const view = options.view ?? REVOCATIONS_VIEW;
  const channel = options.channel ?? REVOCATIONS_CHANNEL;
  if (!QUALIFIED.test(view) || !QUALIFIED.test(channel))
    throw new Error('invalid revocation view or channel');
  const now = options.now ?? Date.now;
  const onError =
    options.onError ?? ((error, operation) => console.error(`revocations ${operation}:`, error));
  const revoked = new Map<string, number>();
  let client: pg.Client | undefined;
  let closed = false;
  let delay = options.reconnectMs ?? 250;
  let timer: NodeJS.Timeout | undefined;
  let lastSweep = now();

  const remember = (jti: string, exp: number) => {
    const until = Math.min(exp, now() / 1000 + MAX_ACCESS_TOKEN_TTL_S);
    if (until * 1000 > now()) revoked.set(jti, until);
  };
  const sweep = () => {
    if (now() - lastSweep < 60_000) return;
    lastSweep = now();
    for (const [jti, exp] of revoked) if (exp * 1000 <= now()) revoked.delete(jti);
  };

  const SELECT = `select jti::text as jti, extract(epoch from expires_at)::float8 as exp from ${view}`;

  async function load(connection: pg.Client): Promise<void> {
    try {
      const result = await connection.query<{ jti: string; exp: number }>(SELECT);
      for (const row of result.rows) remember(row.jti, row.exp);
    } catch (error) {
      // The SSO's schema may not exist yet (a subgraph tested alone): announcements still arrive.
      if ((error as { code?: string }).code !== '42P01') throw error;
    }
  }

  /** Announced ids waiting to be looked up, and whether a flood asks for a reload of the view. */
  const pending = new Set<string>();
  let reloadWanted = false;
  let confirming: Promise<void> | undefined;

  /** The revocations the view holds for these ids (the announced expiry is never trusted). */
  async function confirm(connection: pg.Client, ids: string[]): Promise<void> {
    try {
      const result = await connection.query<{ jti: string; exp: number }>(
        `${SELECT} where jti = any($1::uuid[])`,
        [ids],
      );
      for (const row of result.rows) remember(row.jti, row.exp);
    } catch (error) {
      if ((error as { code?: string }).code !== '42P01') throw error;
    }
  }

  /** Works through the hints, one statement per batch, until none is left. */
  async function confirmPending(connection: pg.Client): Promise<void> {
    while (pending.size > 0 || reloadWanted) {
      if (reloadWanted) {
        reloadWanted = false;
        pending.clear();
        await load(connection);
      } else {
        const ids = [...pending].slice(0, HINTS_PER_LOOKUP);
        for (const id of ids) pending.delete(id);
        await confirm(connection, ids);
      }
      options.onChange?.();
    }
  }

  function hint(connection: pg.Client, payload: string | undefined) {
    const jti = announcedJti(payload);
    if (!jti || revoked.has(jti)) return;
    if (pending.size >= MAX_PENDING_HINTS) reloadWanted = true;
    else pending.add(jti);
    confirming ??= confirmPending(connection)
      .catch((error) => onError(error, 'confirm'))
      .finally(() => {
        confirming = undefined;
      });
  }

  function scheduleReconnect() {
    if (closed || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      latest = connect();
    }, delay);
    timer.unref();
    delay = Math.min(delay * 2, 10_000);
  }

  async function connect(): Promise<void> {
    const connection = new pg.Client({
      connectionString: options.databaseUrl,
      application_name: 'revocations',
      // A frozen database must not hold the first request (which waits for the first load).
      connectionTimeoutMillis: 5_000,
      query_timeout: 5_000,
    });
    connection.on('notification', (message) => hint(connection, message.payload));
    connection.on('error', (error) => {
      onError(error, 'listen');
      void connection.end().catch(() => {});
      if (client === connection) client = undefined;
      scheduleReconnect();
    });
    try {
      await connection.connect();
      await connection.query(`listen ${channel}`);
      await load(connection);
      if (closed) return void (await connection.end());
      client = connection;
      delay = options.reconnectMs ?? 250;
      options.onChange?.();
    } catch (error) {
      onError(error, 'load');
      await connection.end().catch(() => {});
      scheduleReconnect();
    }
  }

  // Requests wait for the first load only; later reloads (after a reconnection) never block them.
  const initial = connect();
  let latest = initial;

  return {
    async revoke(jti, exp) {
      // The SSO's database row is the publication; this only saves waiting for its echo.
      remember(jti, exp);
    },
    async isRevoked(jti) {
      await initial;
      sweep();
      const exp = revoked.get(jti);
      return exp !== undefined && exp * 1000 > now();
    },
    synced: () => latest,
    confirmed: async () => {
      await confirming;
    },
    size: () => revoked.size,
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await latest.catch(() => {});
      await confirming;
      await client?.end().catch(() => {});
      client = undefined;
      revoked.clear();
    },
  };
}

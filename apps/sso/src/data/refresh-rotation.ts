/**
 * Fast refresh-token rotation, batched ("group commit").
 *
 * Rules:
 * - one request is one row of a batch; a batch is ONE autocommit statement, so N concurrent
 *   refreshes cost one round trip and one commit instead of N (on a 2-core machine the round
 *   trips and commits, not the SQL, were most of a refresh's cost);
 * - at most `maxInFlight` batches run at once (default 1); requests arriving meanwhile wait and
 *   leave together in the next batch, so an idle server sends a batch of one at once (no added
 *   latency) and a busy one sends larger batches. One batch at a time rather than two: fewer,
 *   larger batches cost PostgreSQL less CPU per token for the same throughput
 *   (tools/bench/src/sso-peers.ts with BENCH_SSO_BASELINE compares them);
 * - each row rotates its token with a compare-and-set: marked rotated only if still unrotated,
 *   unrevoked, unexpired, bound to no client or to the requesting one, and its user exists and is
 *   not disabled. Only a row that matched records the new refresh token of the family, the new
 *   access token, the audit row, and revokes the family's live access tokens ("rotated away");
 *   all parts of the statement see one snapshot, so the new access token is not among them;
 * - two rows of one batch presenting the same token: PostgreSQL updates the token once, so one of
 *   them gets no answer, like the loser of two concurrent statements;
 * - a row that did not match, or a batch that failed (a deadlock between two batches, a lost
 *   connection), answers undefined and writes nothing for it: the caller then takes the slow,
 *   locking path, which classifies the failure (reuse, expiry, wrong client...) exactly.
 * The caller signs the access token after the rotation, with the user claims this statement
 * returns (one statement per refresh instead of a read, a signature and a write).
 */
import { preparedQuery, type Knex } from '@fleetgraph/db';
import type { RevokedAccessToken } from './access-tokens';

export interface RotationRequest {
  /** SHA-256 of the presented refresh token (hashRefreshToken). */
  tokenHash: string;
  /** The authenticated client, null when none was named. */
  clientId: string | null;
  /** Id and hash of the refresh token that replaces it. */
  newId: string;
  newHash: string;
  /** The access token about to be signed. */
  jti: string;
  accessExpiresAt: Date;
  ip: string | null;
}

export interface Rotation {
  familyId: string;
  userId: string;
  clientId: string | null;
  scope: string;
  email: string;
  fullName: string;
  /** The family's access tokens this rotation revoked (for the shared revocation list). */
  superseded: RevokedAccessToken[];
}

export interface RotationBatcher {
  rotate(request: RotationRequest): Promise<Rotation | undefined>;
}

interface Pending {
  request: RotationRequest;
  resolve: (rotation: Rotation | undefined) => void;
}

export const ROTATE_BATCH = {
  name: 'sso_rotate_refresh_batch',
  text: `
  with input as (
    select * from json_to_recordset(cast($1 as json))
      as i(n int, token_hash text, client_id text, new_id uuid, new_hash text, jti uuid,
           access_expires_at timestamptz, ip text)
  ), rotated as (
    update sso.refresh_tokens rt
       set rotated_at = now()
      from input i, sso.users u
     -- The presented hashes as one array: an index condition on token_hash whatever the
     -- statistics (a join on input alone let a stats-less planner walk every live token).
     where rt.token_hash = any(array(select token_hash from input))
       and rt.token_hash = i.token_hash
       and rt.rotated_at is null
       and rt.revoked_at is null
       and rt.expires_at > now()
       and (rt.client_id is null or rt.client_id = i.client_id)
       and u.id = rt.user_id
       and not u.disabled
    returning i.n, i.new_id, i.new_hash, i.jti, i.access_expires_at, i.ip,
              rt.family_id, rt.user_id, rt.client_id, rt.scope, u.email, u.full_name
  ), new_refresh as (
    insert into sso.refresh_tokens (id, token_hash, family_id, user_id, client_id, scope, expires_at)
    select new_id, new_hash, family_id, user_id, client_id, scope,
           now() + cast($2 as int) * interval '1 second'
      from rotated
  ), new_access as (
    insert into sso.access_tokens (jti, user_id, family_id, client_id, expires_at)
    select jti, user_id, family_id, client_id, access_expires_at from rotated
  ), logged as (
    insert into sso.audit_log (event, user_id, client_id, ip, detail)
    select 'token.issued', user_id, client_id, ip, '{"grant":"refresh_token"}'::jsonb from rotated
  ), superseded as (
    update sso.access_tokens at
       set revoked_at = now()
      from rotated r
     where at.family_id = r.family_id
       and at.revoked_at is null
       and at.expires_at > now()
    returning r.n, at.jti, at.expires_at
  )
  select r.n, r.family_id, r.user_id, r.client_id, r.scope, r.email, r.full_name,
         coalesce((select json_agg(json_build_object(
                     'jti', s.jti, 'exp', floor(extract(epoch from s.expires_at))::bigint))
                     from superseded s where s.n = r.n), '[]'::json) as superseded
    from rotated r`,
};

export function createRotationBatcher(
  db: Knex,
  options: {
    refreshTtlSeconds: number;
    maxInFlight?: number;
    maxBatch?: number;
    onError?: (error: unknown) => void;
  },
): RotationBatcher {
  const maxInFlight = options.maxInFlight ?? 1;
  const maxBatch = options.maxBatch ?? 256;
  const queue: Pending[] = [];
  let inFlight = 0;

  async function run(batch: Pending[]): Promise<void> {
    const answers = new Map<number, Rotation>();
    try {
      const input = batch.map(({ request }, n) => ({
        n,
        token_hash: request.tokenHash,
        client_id: request.clientId,
        new_id: request.newId,
        new_hash: request.newHash,
        jti: request.jti,
        access_expires_at: request.accessExpiresAt.toISOString(),
        ip: request.ip,
      }));
      const rows = await preparedQuery<Record<string, any>>(db, ROTATE_BATCH, [
        JSON.stringify(input),
        options.refreshTtlSeconds,
      ]);
      for (const row of rows) {
        answers.set(row.n, {
          familyId: row.family_id,
          userId: row.user_id,
          clientId: row.client_id,
          scope: row.scope,
          email: row.email,
          fullName: row.full_name,
          superseded: (row.superseded as { jti: string; exp: string | number }[]).map((s) => ({
            jti: s.jti,
            exp: Number(s.exp),
          })),
        });
      }
    } catch (error) {
      // Nothing of the batch was written (one statement); every request takes the slow path.
      options.onError?.(error);
    }
    batch.forEach((pending, n) => pending.resolve(answers.get(n)));
  }

  function pump(): void {
    while (inFlight < maxInFlight && queue.length > 0) {
      const batch = queue.splice(0, maxBatch);
      inFlight++;
      void run(batch).finally(() => {
        inFlight--;
        pump();
      });
    }
  }

  return {
    rotate(request) {
      return new Promise((resolve) => {
        queue.push({ request, resolve });
        pump();
      });
    },
  };
}

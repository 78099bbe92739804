/**
 * sso.audit_log: one row per security event (sign-ins and their failures, throttling, consents,
 * token grants and refusals, code reuse, revocations, administration). Never holds a secret or a
 * token: only ids, the client address and a small detail object.
 */
import type { Knex } from '@fleetgraph/db';

export type AuditEvent =
  | 'sign_in.success'
  | 'sign_in.failure'
  | 'sign_in.throttled'
  | 'sign_out'
  | 'consent.granted'
  | 'consent.denied'
  | 'authorize.code_issued'
  | 'token.issued'
  | 'token.refused'
  | 'token.throttled'
  | 'code.reused'
  | 'refresh.reused'
  | 'token.revoked'
  | 'admin.user'
  | 'admin.application'
  | 'admin.keys';

export interface AuditFields {
  userId?: string | null;
  clientId?: string | null;
  ip?: string | null;
  detail?: Record<string, unknown>;
}

export async function audit(
  db: Knex | Knex.Transaction,
  event: AuditEvent,
  fields: AuditFields = {},
): Promise<void> {
  await db('sso.audit_log').insert({
    event,
    user_id: fields.userId ?? null,
    client_id: fields.clientId ?? null,
    ip: fields.ip ?? null,
    detail: JSON.stringify(fields.detail ?? {}),
  });
}

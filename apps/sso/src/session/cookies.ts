/**
 * Browser state of the sign-in and consent pages.
 * - session cookie: a random 256-bit id; only its SHA-256 is stored (sso.sessions), valid
 *   SESSION_TTL_SECONDS; a fresh id is issued at every sign-in (no session fixation);
 * - CSRF: double-submit token. A random token lives in its own cookie and is repeated in a hidden
 *   field of every form; a POST whose field is missing or differs (constant-time compare) is
 *   refused. The cookie cannot be read or set by another site (HttpOnly, SameSite=Lax, and the
 *   `__Host-` prefix over https), so a cross-site form cannot know it;
 * - every cookie: HttpOnly, SameSite=Lax, Path=/; Secure (and `__Host-` names) when the issuer is
 *   https.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Knex } from '@fleetgraph/db';
import type { SsoConfig } from '../config';

export const SESSION_TTL_SECONDS = 12 * 3600;

export interface CookieNames {
  session: string;
  csrf: string;
}

export function isSecureIssuer(config: Pick<SsoConfig, 'issuer'>): boolean {
  return config.issuer.startsWith('https://');
}

export function cookieNames(config: Pick<SsoConfig, 'issuer'>): CookieNames {
  const prefix = isSecureIssuer(config) ? '__Host-' : '';
  return { session: `${prefix}fg_session`, csrf: `${prefix}fg_csrf` };
}

export function cookieOptions(config: Pick<SsoConfig, 'issuer'>, maxAge?: number) {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: isSecureIssuer(config),
    ...(maxAge ? { maxAge } : {}),
  };
}

function sha256(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('base64url');
}

export async function createSession(db: Knex, userId: string): Promise<string> {
  const id = randomBytes(32).toString('base64url');
  await db('sso.sessions').insert({
    id_hash: sha256(id),
    user_id: userId,
    expires_at: new Date(Date.now() + SESSION_TTL_SECONDS * 1000),
  });
  return id;
}

/** The signed-in user's id, when the session cookie names a live session of an enabled user. */
export async function sessionUserId(db: Knex, sessionId: string | undefined): Promise<string | null> {
  if (!sessionId) return null;
  const row = await db('sso.sessions as s')
    .join('sso.users as u', 'u.id', 's.user_id')
    .select('s.user_id')
    .where('s.id_hash', sha256(sessionId))
    .where('s.expires_at', '>', db.fn.now())
    .where('u.disabled', false)
    .first();
  return (row?.user_id as string | undefined) ?? null;
}

export async function deleteSession(db: Knex, sessionId: string | undefined): Promise<void> {
  if (sessionId)
    await db('sso.sessions')
      .where({ id_hash: sha256(sessionId) })
      .delete();
}

/** The CSRF token of this browser, set as a cookie when it has none yet. */
export function ensureCsrfToken(
  request: FastifyRequest,
  reply: FastifyReply,
  config: Pick<SsoConfig, 'issuer'>,
): string {
  const names = cookieNames(config);
  const existing = request.cookies[names.csrf];
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const token = randomBytes(32).toString('base64url');
  reply.setCookie(names.csrf, token, cookieOptions(config));
  return token;
}

export function csrfTokenValid(
  request: FastifyRequest,
  config: Pick<SsoConfig, 'issuer'>,
  submitted: unknown,
): boolean {
  const cookie = request.cookies[cookieNames(config).csrf];
  if (!cookie || typeof submitted !== 'string') return false;
  const a = Buffer.from(cookie);
  const b = Buffer.from(submitted);
  return a.length === b.length && timingSafeEqual(a, b);
}

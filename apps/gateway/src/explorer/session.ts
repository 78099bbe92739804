/**
 * The explorer's session lives in one cookie, encrypted and authenticated (AES-256-GCM with a key
 * derived by HKDF from EXPLORER_SESSION_SECRET, or from the client secret): the browser holds it
 * but can neither read nor alter the tokens inside, and every gateway instance with the same
 * secret can read it (no server-side session store). HttpOnly, SameSite=Strict, Path=/, Secure
 * with the `__Host-` prefix when cookies are secure. A session older than MAX_AGE_SECONDS is void.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { CookieSerializeOptions } from '@fastify/cookie';

export const MAX_AGE_SECONDS = 8 * 60 * 60;

export interface ExplorerSession {
  accessToken: string;
  refreshToken?: string;
  /** Access token expiry, epoch seconds. */
  expiresAt: number;
  /** When the user signed in, epoch seconds. */
  createdAt: number;
}

export interface SessionCodec {
  cookieName: string;
  cookieOptions: CookieSerializeOptions;
  seal(session: ExplorerSession): string;
  open(value: string | undefined, now?: number): ExplorerSession | undefined;
}

export function sessionCodec(secret: string, secure: boolean): SessionCodec {
  const key = Buffer.from(hkdfSync('sha256', secret, 'fleetgraph-explorer', 'session cookie v1', 32));
  return {
    cookieName: secure ? '__Host-fg-explorer' : 'fg-explorer',
    cookieOptions: { httpOnly: true, sameSite: 'strict', secure, path: '/', maxAge: MAX_AGE_SECONDS },
    seal(session) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(JSON.stringify(session), 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
    },
    open(value, now = Date.now() / 1000) {
      if (!value) return undefined;
      try {
        const raw = Buffer.from(value, 'base64url');
        if (raw.length < 29) return undefined;
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
        decipher.setAuthTag(raw.subarray(12, 28));
        const text = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
        const session = JSON.parse(text) as ExplorerSession;
        if (typeof session.accessToken !== 'string' || typeof session.createdAt !== 'number')
          return undefined;
        if (now - session.createdAt > MAX_AGE_SECONDS) return undefined;
        return session;
      } catch {
        return undefined;
      }
    },
  };
}

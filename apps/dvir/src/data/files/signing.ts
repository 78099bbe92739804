/**
 * Signed download URLs served by the dvir app: `/files/<id>?exp=<unix seconds>&sig=<hmac>`,
 * sig = base64url(HMAC-SHA256(secret, "<id>.<exp>")). Bound to one attachment, expiring; the
 * clock is injected so expiry is tested without waiting.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export type Clock = () => number;

export class UrlSigner {
  constructor(
    private readonly secret: string,
    private readonly ttlS: number,
    private readonly clock: Clock = Date.now,
  ) {}

  private mac(id: string, exp: number): string {
    return createHmac('sha256', this.secret).update(`${id.toLowerCase()}.${exp}`).digest('base64url');
  }

  sign(id: string): { exp: number; sig: string } {
    const exp = Math.floor(this.clock() / 1000) + this.ttlS;
    return { exp, sig: this.mac(id, exp) };
  }

  /** 'ok', or why the URL is refused. */
  verify(id: string, exp: unknown, sig: unknown): 'ok' | 'invalid' | 'expired' {
    if (typeof exp !== 'string' || !/^\d{1,12}$/.test(exp) || typeof sig !== 'string') return 'invalid';
    const expected = Buffer.from(this.mac(id, Number(exp)));
    const given = Buffer.from(sig);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'invalid';
    if (Number(exp) * 1000 <= this.clock()) return 'expired';
    return 'ok';
  }
}

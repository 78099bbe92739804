/**
 * Opaque, signed, stateless page cursors. A cursor carries the keyset position of the last row
 * sent, the page size and a fingerprint of the query (field, filters, parent) it belongs to; it is
 * HMAC-signed so a client can neither forge a position nor reuse a cursor with other filters.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { badInput } from './errors';

export interface Cursor {
  /** keyset values of the last row of the previous page */
  k: unknown[];
  /** page size */
  s: number;
  /** query fingerprint */
  f: string;
}

const SIGNATURE_BYTES = 16;

export class CursorCodec {
  private readonly key: Buffer;
  constructor(secret: string) {
    if (secret.length < 16) throw new Error('paging secret must have at least 16 characters');
    this.key = Buffer.from(secret, 'utf8');
  }

  encode(cursor: Cursor): string {
    const payload = Buffer.from(JSON.stringify([cursor.k, cursor.s, cursor.f]), 'utf8').toString('base64url');
    return `${payload}.${this.sign(payload).toString('base64url')}`;
  }

  decode(pageId: string): Cursor {
    const invalid = () =>
      badInput(
        'pageId is not valid: it was altered or is not a pageId of this service. Start again without pageId.',
        {
          argument: 'pageId',
        },
      );
    const dot = pageId.indexOf('.');
    if (dot <= 0 || pageId.length > 4096) throw invalid();
    const payload = pageId.slice(0, dot);
    // Compare the signature as its canonical text, not as decoded bytes: base64url decoding
    // ignores the padding bits of the last character, so a changed last character could
    // otherwise decode to the same bytes and an altered pageId would pass.
    const signature = Buffer.from(pageId.slice(dot + 1), 'utf8');
    const expected = Buffer.from(this.sign(payload).toString('base64url'), 'utf8');
    if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) throw invalid();
    try {
      const [k, s, f] = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as [
        unknown[],
        number,
        string,
      ];
      if (!Array.isArray(k) || typeof s !== 'number' || typeof f !== 'string') throw invalid();
      return { k, s, f };
    } catch {
      throw invalid();
    }
  }

  private sign(payload: string): Buffer {
    return createHmac('sha256', this.key).update(payload).digest().subarray(0, SIGNATURE_BYTES);
  }
}

/**
 * The page size a pageId asks for, read WITHOUT checking its signature: for estimates only (the
 * gateway's query cost), never to serve data; the subgraph verifies the cursor when it is used.
 * Undefined when the text is not shaped like a cursor.
 */
export function cursorPageSize(pageId: string): number | undefined {
  const dot = pageId.indexOf('.');
  if (dot <= 0 || pageId.length > 4096) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(pageId.slice(0, dot), 'base64url').toString('utf8'));
    const size = Array.isArray(parsed) ? parsed[1] : undefined;
    return typeof size === 'number' && Number.isInteger(size) && size >= 0 ? size : undefined;
  } catch {
    return undefined;
  }
}

/** A short stable hash of what a page belongs to (field name, filters, parent id). */
export function fingerprint(...parts: unknown[]): string {
  return createHash('sha256').update(stableJson(parts)).digest('base64url').slice(0, 16);
}

function stableJson(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined && v !== null)
    .sort(([a], [b]) => a.localeCompare(b));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
}

/**
 * Is this error the database being away (down, frozen, restarting, out of connections) rather
 * than a bug or a bad statement? Services answer those with 503 and Retry-After (a client may
 * simply try again), never with a 500.
 */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/**
 * PostgreSQL SQLSTATEs: class 08 (connection), 57P01-57P05 (shutdown, crash, cannot connect now,
 * idle), 53300 (too many connections), 57014 (statement timeout), and 40001 / 40P01, which a hot
 * standby raises when it cancels a read that conflicts with the recovery it replays: the same
 * read succeeds when tried again.
 */
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '57P05', '53300', '57014', '40001', '40P01']);
const MESSAGES = [
  /Connection terminated/i,
  /Timeout acquiring a connection/i,
  /Query read timeout/i,
  /timeout expired/i,
  /connection timeout/i,
];

/** Seconds a client should wait before retrying while the database is away. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const { code, name, message } = current as { code?: unknown; name?: unknown; message?: unknown };
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || SQLSTATES.has(code) || code.startsWith('08')))
      return true;
    if (name === 'KnexTimeoutError') return true;
    if (typeof message === 'string' && MESSAGES.some((pattern) => pattern.test(message))) return true;
    current =
      (current as { cause?: unknown; originalError?: unknown }).cause ??
      (current as { originalError?: unknown }).originalError;
  }
  return false;
}

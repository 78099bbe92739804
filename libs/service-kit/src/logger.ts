/**
 * pino options shared by every app: secrets never reach a log line, whatever the request carries.
 */
import type { LoggerOptions } from 'pino';

export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.client_secret',
  '*.access_token',
  '*.refresh_token',
  '*.code_verifier',
  'password',
  'client_secret',
  'access_token',
  'refresh_token',
];

export function loggerOptions(name: string, level: string): LoggerOptions {
  return {
    name,
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
  };
}

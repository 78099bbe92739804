/**
 * `timestamptz` text to Date without regular expressions. node-postgres parses every timestamp
 * column of every row with three regular expressions and a handful of parseInts
 * (postgres-date); on a page of 50 devices with eight timestamps each that was about 4 % of
 * fleet-core's busy CPU (tools/bench/src/subgraph-engine.ts, profiled). PostgreSQL's ISO output
 * `YYYY-MM-DD HH:MM:SS[.ffffff]±HH[:MM[:SS]]` is read by position; anything else (years before
 * 1000 or after 9999, BC, infinity) goes to node-postgres's own parser, unchanged.
 * Milliseconds are the first three fraction digits (microseconds are truncated, as before).
 */
import pg from 'pg';

type Parser = (text: string) => Date | number | null;

const DASH = 45;
const SPACE = 32;
const COLON = 58;
const DOT = 46;
const PLUS = 43;
const MINUS = 45;

const isDigit = (code: number) => code >= 48 && code <= 57;

/** The two-digit number at `at`, or -1 when those are not two digits. */
function twoDigits(text: string, at: number): number {
  const a = text.charCodeAt(at);
  const b = text.charCodeAt(at + 1);
  return isDigit(a) && isDigit(b) ? (a - 48) * 10 + (b - 48) : -1;
}

/** Seconds east of UTC of `±HH[:MM[:SS]]` filling `text` from `at` to its end, or NaN. */
function offsetSeconds(text: string, at: number): number {
  const sign = text.charCodeAt(at);
  if (sign !== PLUS && sign !== MINUS) return NaN;
  const parts = [0, 0, 0];
  let i = at + 1;
  for (let part = 0; part < 3; part++) {
    if (part > 0) {
      if (i === text.length) break;
      if (text.charCodeAt(i) !== COLON) return NaN;
      i++;
    }
    const value = twoDigits(text, i);
    if (value < 0) return NaN;
    parts[part] = value;
    i += 2;
  }
  if (i !== text.length) return NaN;
  const seconds = parts[0]! * 3600 + parts[1]! * 60 + parts[2]!;
  return sign === PLUS ? seconds : -seconds;
}

export function timestamptzParser(fallback: Parser): Parser {
  return (text) => {
    if (
      text.length < 22 ||
      text.charCodeAt(4) !== DASH ||
      text.charCodeAt(7) !== DASH ||
      text.charCodeAt(10) !== SPACE ||
      text.charCodeAt(13) !== COLON ||
      text.charCodeAt(16) !== COLON
    )
      return fallback(text);
    const century = twoDigits(text, 0);
    const yearOfCentury = twoDigits(text, 2);
    const month = twoDigits(text, 5);
    const day = twoDigits(text, 8);
    const hour = twoDigits(text, 11);
    const minute = twoDigits(text, 14);
    const second = twoDigits(text, 17);
    if (century < 10 || yearOfCentury < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0)
      return fallback(text);
    let i = 19;
    let ms = 0;
    if (text.charCodeAt(i) === DOT) {
      i++;
      const start = i;
      while (isDigit(text.charCodeAt(i))) {
        if (i - start < 3) ms = ms * 10 + (text.charCodeAt(i) - 48);
        i++;
      }
      const digits = i - start;
      if (digits === 0) return fallback(text);
      if (digits === 1) ms *= 100;
      else if (digits === 2) ms *= 10;
    }
    const offset = offsetSeconds(text, i);
    if (Number.isNaN(offset)) return fallback(text);
    const utc = Date.UTC(century * 100 + yearOfCentury, month - 1, day, hour, minute, second, ms);
    return new Date(utc - offset * 1000);
  };
}

/** Installs the parser for `timestamptz` in node-postgres (process-wide, like its other parsers). */
export function installTimestampParser(): void {
  const builtin = pg.types.builtins.TIMESTAMPTZ;
  const fallback = pg.types.getTypeParser(builtin, 'text') as Parser;
  if ((fallback as { fast?: boolean }).fast) return;
  const parser = Object.assign(timestamptzParser(fallback), { fast: true });
  pg.types.setTypeParser(builtin, parser);
}

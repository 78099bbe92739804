/** Field parsers shared by the dataset schemas (core, services, activity): one wording per error. */
import { z } from 'zod';
import { LANGUAGE_CODES } from '@fleetgraph/subgraph-kit';

/** One of `values`; the error names the field, the value and every allowed value. */
export function enumOf<const T extends readonly [string, ...string[]]>(values: T, what: string) {
  return z.enum(values, {
    error: (issue) => `invalid ${what} ${JSON.stringify(issue.input)}: expected one of ${values.join(', ')}`,
  });
}

/** A string that is not empty once trimmed. */
export const text = z.string().trim().min(1, 'must not be empty');

/** An ISO 8601 timestamp with its offset. */
export const timestamp = z.iso.datetime({
  offset: true,
  error: (issue) =>
    `invalid timestamp ${JSON.stringify(issue.input)}: expected ISO 8601, e.g. 2026-11-20T08:30:00Z`,
});

/** A language of the shared `Language` enum, in any letter case (`fr` is FR). */
export const language = z.preprocess(
  (v) => (typeof v === 'string' ? v.toUpperCase() : v),
  enumOf(LANGUAGE_CODES, 'language'),
);

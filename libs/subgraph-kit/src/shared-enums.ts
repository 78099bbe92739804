/**
 * The values of the shared GraphQL enums (libs/subgraph-kit/sdl/shared.graphql) for code that
 * checks data against them (importers, seeds, domain rules). shared-enums.test.ts keeps them equal
 * to the SDL, so a value added there is added here or the tests fail.
 */

/** `Language`: ISO 639-1 codes, upper case. */
export const LANGUAGE_CODES = [
  'EN',
  'FR',
  'DE',
  'ES',
  'IT',
  'NL',
  'PT',
  'PL',
  'SV',
  'DA',
  'NB',
  'FI',
  'CS',
  'SK',
  'HU',
  'RO',
  'EL',
  'TR',
  'JA',
  'ZH',
] as const;
export type LanguageCode = (typeof LANGUAGE_CODES)[number];

/**
 * Countries: which country contains a point (country-coder's borders, which follow land borders
 * and coastal waters, so open sea has no country) and country names in ~80 languages
 * (i18n-iso-countries; its Node entry registers every bundled locale).
 */
import { feature } from '@rapideditor/country-coder';
import countries from 'i18n-iso-countries';
import { DEFAULT_LANGUAGE } from './languages';

export interface CountryInfo {
  /** ISO 3166-1 alpha-2. */
  alpha2: string;
  /** ISO 3166-1 alpha-3. */
  alpha3: string | null;
  /** English name (country-coder), used when i18n-iso-countries has no name for the code. */
  nameEn: string;
}

function toInfo(props: { iso1A2?: string; iso1A3?: string; nameEn: string } | undefined): CountryInfo | null {
  if (!props?.iso1A2) return null;
  return {
    alpha2: props.iso1A2,
    alpha3: props.iso1A3 ?? countries.alpha2ToAlpha3(props.iso1A2) ?? null,
    nameEn: props.nameEn,
  };
}

/**
 * The country at a point; null at sea. A dependent territory with its own ISO 3166-1 code
 * (Guadeloupe GP, Puerto Rico PR, Hong Kong HK...) is answered as itself, as GeoNames files its
 * places; a territory without one (Hawaii, the Azores) as its country.
 */
export function countryAt(lat: number, lng: number): CountryInfo | null {
  const territory = feature([lng, lat], { level: 'territory' })?.properties;
  if (territory?.iso1A2 && countries.isValid(territory.iso1A2)) return toInfo(territory);
  return toInfo(feature([lng, lat])?.properties);
}

/** A country by ISO 3166-1 alpha-2 or alpha-3 code, any case; null when unknown. */
export function countryByCode(code: string): CountryInfo | null {
  const upper = code.trim().toUpperCase();
  if (!/^[A-Z]{2,3}$/.test(upper)) return null;
  const found = toInfo(feature(upper)?.properties);
  if (found && (found.alpha2 === upper || found.alpha3 === upper)) return found;
  // country-coder also answers aliases (e.g. UK for GB); accept only real ISO codes, plus what
  // i18n-iso-countries knows that country-coder does not.
  const alpha2 =
    upper.length === 2
      ? countries.isValid(upper)
        ? upper
        : null
      : (countries.alpha3ToAlpha2(upper) ?? null);
  if (!alpha2) return null;
  return {
    alpha2,
    alpha3: countries.alpha2ToAlpha3(alpha2) ?? null,
    nameEn: countries.getName(alpha2, 'en') ?? alpha2,
  };
}

/** The country's name in `lang`, falling back to English. */
export function countryName(country: CountryInfo, lang: string): string {
  return (
    countries.getName(country.alpha2, lang) ??
    countries.getName(country.alpha2, DEFAULT_LANGUAGE) ??
    country.nameEn
  );
}

/** Languages with country names (for the README and tests). */
export const countryNameLanguages = (): string[] => countries.langs();

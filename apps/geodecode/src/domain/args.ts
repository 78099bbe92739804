/**
 * Rules for the geodecode arguments; each broken rule is a BAD_USER_INPUT error saying what to
 * send instead.
 * - lang: ISO 639-1 (any case) or IC; null means en.
 * - normal search: lat and lng both present, lat in -90..90, lng in -180..180.
 * - IC search: countryCode (2 or 3 letters) or else lat/lng; a given coordinate must be valid.
 * - radius 1..50000 meters; maxResult 1..50.
 */
import { badInput } from '@fleetgraph/paging';
import { COUNTRY_SEARCH, DEFAULT_LANGUAGE, LANGUAGES } from './languages';

export const RADIUS_MIN = 1;
export const RADIUS_MAX = 50_000;
export const MAX_RESULT_MAX = 50;

export interface GeodecodeArgs {
  lat?: number | null;
  lng?: number | null;
  radius?: number | null;
  skipEmptyStreetname?: boolean | null;
  maxResult?: number | null;
  lang?: string | null;
  countryCode?: string | null;
}

export type GeodecodeRequest =
  | {
      mode: 'point';
      lat: number;
      lng: number;
      radius: number;
      maxResult: number;
      skipEmptyStreetname: boolean;
      lang: string;
    }
  | {
      mode: 'country';
      countryCode: string | null;
      point: { lat: number; lng: number } | null;
      skipEmptyStreetname: boolean;
    };

export function checkArgs(args: GeodecodeArgs): GeodecodeRequest {
  const lang = checkLang(args.lang);
  const skipEmptyStreetname = args.skipEmptyStreetname === true;
  const radius = args.radius ?? 100;
  if (radius < RADIUS_MIN || radius > RADIUS_MAX) {
    throw badInput(`radius must be between ${RADIUS_MIN} and ${RADIUS_MAX} meters (got ${radius})`, {
      argumentName: 'radius',
    });
  }
  const maxResult = args.maxResult ?? 1;
  if (maxResult < 1 || maxResult > MAX_RESULT_MAX) {
    throw badInput(`maxResult must be between 1 and ${MAX_RESULT_MAX} (got ${maxResult})`, {
      argumentName: 'maxResult',
    });
  }

  if (lang === COUNTRY_SEARCH) {
    const code = args.countryCode?.trim() ?? '';
    if (args.countryCode != null && !/^[A-Za-z]{2,3}$/.test(code)) {
      throw badInput(
        `countryCode must be an ISO 3166-1 alpha-2 or alpha-3 code such as FR or FRA (got ${JSON.stringify(args.countryCode)})`,
        {
          argumentName: 'countryCode',
        },
      );
    }
    const hasPoint = args.lat != null || args.lng != null;
    if (!code && !hasPoint) {
      throw badInput('lang IC is a country search: pass countryCode (e.g. "FR" or "FRA"), or lat and lng', {
        argumentName: 'countryCode',
      });
    }
    const point = hasPoint ? checkPoint(args.lat, args.lng) : null;
    return { mode: 'country', countryCode: code ? code.toUpperCase() : null, point, skipEmptyStreetname };
  }

  const { lat, lng } = checkPoint(args.lat, args.lng);
  return { mode: 'point', lat, lng, radius, maxResult, skipEmptyStreetname, lang };
}

function checkLang(value: string | null | undefined): string {
  if (value == null) return DEFAULT_LANGUAGE;
  const lang = value.trim().toLowerCase();
  if (lang === COUNTRY_SEARCH || LANGUAGES.has(lang)) return lang;
  throw badInput(
    `lang must be an ISO 639-1 two-letter language code such as en, fr or de, or IC for a country search (got ${JSON.stringify(value)})`,
    { argumentName: 'lang' },
  );
}

function checkPoint(
  lat: number | null | undefined,
  lng: number | null | undefined,
): { lat: number; lng: number } {
  if (lat == null || lng == null) {
    const missing = [lat == null ? 'lat' : null, lng == null ? 'lng' : null].filter(Boolean).join(' and ');
    throw badInput(
      `${missing} ${missing.includes(' and ') ? 'are' : 'is'} required: pass both lat and lng (WGS 84 degrees)`,
      {
        argumentName: lat == null ? 'lat' : 'lng',
      },
    );
  }
  if (!Number.isFinite(lat) || lat < -90 || lat > 90) {
    throw badInput(`lat must be between -90 and 90 degrees (got ${lat})`, { argumentName: 'lat' });
  }
  if (!Number.isFinite(lng) || lng < -180 || lng > 180) {
    throw badInput(`lng must be between -180 and 180 degrees (got ${lng})`, { argumentName: 'lng' });
  }
  return { lat, lng };
}

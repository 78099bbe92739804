/** Distances on the sphere (meters) and the local flat projection used for short distances. */
const EARTH_RADIUS_M = 6_371_008.8;
const RAD = Math.PI / 180;

export function haversineMeters(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLng = (lng2 - lng1) * RAD;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Meters per degree of latitude and of longitude around a latitude (equirectangular). */
export function metersPerDegree(lat: number): { ky: number; kx: number } {
  const ky = EARTH_RADIUS_M * RAD;
  return { ky, kx: Math.max(ky * Math.cos(lat * RAD), 1e-6) };
}

/** The 0.01-degree latitude band of a latitude (see the geo migration). */
export const latBand = (lat: number): number => Math.floor(lat * 100);

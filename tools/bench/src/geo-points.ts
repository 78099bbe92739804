/** Points the geodecode benchmarks ask about: cities on every continent, then open sea and Reykjavik. */
export const GEO_POINTS: ReadonlyArray<readonly [number, number]> = [
  [48.8566, 2.3522],
  [52.52, 13.405],
  [-1.2921, 36.8219],
  [35.6762, 139.6503],
  [-33.8688, 151.2093],
  [-34.6037, -58.3816],
  [40.7128, -74.006],
  [47.5596, 7.5886],
  [30, -40],
  [64.1466, -21.9426],
];

/** The cities only (every one has addresses nearby). */
export const CITY_POINTS = GEO_POINTS.slice(0, 8);

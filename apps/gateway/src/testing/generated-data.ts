/**
 * Leaf values for the generated subgraph answers of the result-shaping tests (their schemas share
 * these scalar and enum names): a valid value of the named type, drawn from `next`.
 */
export function leafValue(typeName: string, next: () => number): unknown {
  switch (typeName) {
    case 'ID':
      return next() < 0.5 ? String(Math.floor(next() * 100)) : Math.floor(next() * 100);
    case 'Int':
      return Math.floor(next() * 1000) - 500;
    case 'Float':
      return next() * 10;
    case 'Boolean':
      return next() < 0.5;
    case 'Status':
      return next() < 0.5 ? 'OPEN' : 'CLOSED';
    case 'DateTime':
      return '2026-11-26T10:00:00Z';
    default:
      return `s${Math.floor(next() * 10)}`;
  }
}

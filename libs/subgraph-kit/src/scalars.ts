import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';

/** ISO 8601 UTC timestamps out; ISO 8601 strings in (BAD_USER_INPUT otherwise). */
export const DateTimeScalar = new GraphQLScalarType({
  name: 'DateTime',
  description: 'An ISO 8601 UTC timestamp, e.g. 2026-11-22T08:30:00.000Z.',
  serialize(value) {
    const date = value instanceof Date ? value : new Date(String(value));
    if (Number.isNaN(date.getTime())) throw new GraphQLError('DateTime cannot represent an invalid date');
    return date.toISOString();
  },
  parseValue(value) {
    return parseDate(value);
  },
  parseLiteral(ast) {
    if (ast.kind !== Kind.STRING) throw badDate(ast.kind);
    return parseDate(ast.value);
  },
});

function parseDate(value: unknown): Date {
  if (
    typeof value !== 'string' ||
    !/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(value)
  ) {
    throw badDate(value);
  }
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw badDate(value);
  return date;
}

function badDate(value: unknown) {
  return new GraphQLError(
    `DateTime must be an ISO 8601 string such as 2026-11-22T08:30:00Z (got ${JSON.stringify(value)})`,
    {
      extensions: { code: 'BAD_USER_INPUT' },
    },
  );
}

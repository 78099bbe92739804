import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';

/** ISO 8601 UTC timestamps out; ISO 8601 strings in (BAD_USER_INPUT otherwise). */
export const DateTimeScalar = new GraphQLScalarType({
  name: 'DateTime',
  description:
    'An ISO 8601 timestamp, e.g. 2026-11-22T08:30:00.000Z; answers are UTC, and an argument without an offset is read as UTC.',
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

const ISO_8601 =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|([+-])(\d{2}):?(\d{2}))?)?$/;

function parseDate(value: unknown): Date {
  const match = typeof value === 'string' ? ISO_8601.exec(value) : null;
  if (!match) throw badDate(value);
  const [, year, month, day, hour, minute, second, zone, sign, offsetHours, offsetMinutes] = match;
  // Every DateTime is UTC unless it names its offset: never the server's own time zone.
  const date = new Date(hour !== undefined && zone === undefined ? `${value as string}Z` : (value as string));
  if (Number.isNaN(date.getTime())) throw badDate(value);
  // JavaScript rolls impossible values over (2026-02-31 is March 3, 24:00 the next day): the date
  // must show, in the offset it was written in, exactly the components the text gives.
  const given = [year, month, day, hour ?? '00', minute ?? '00', second ?? '00'].map(Number);
  const offset = sign ? (sign === '-' ? -1 : 1) * (Number(offsetHours) * 60 + Number(offsetMinutes)) : 0;
  const at = new Date(date.getTime() + offset * 60_000);
  const shown = [
    at.getUTCFullYear(),
    at.getUTCMonth() + 1,
    at.getUTCDate(),
    at.getUTCHours(),
    at.getUTCMinutes(),
    at.getUTCSeconds(),
  ];
  if (shown.some((n, i) => n !== given[i])) {
    throw new GraphQLError(
      `DateTime must be a date and time that exists (got ${JSON.stringify(value)}: no such day, hour, minute or second)`,
      { extensions: { code: 'BAD_USER_INPUT' } },
    );
  }
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

/** Any JSON value, passed through unchanged. */
export const JsonScalar = new GraphQLScalarType({
  name: 'Json',
  description: 'Arbitrary JSON value (object, array, string, number, boolean or null).',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: function literal(ast: ValueNode, variables?: Record<string, unknown> | null): unknown {
    switch (ast.kind) {
      case Kind.STRING:
      case Kind.BOOLEAN:
        return ast.value;
      case Kind.INT:
      case Kind.FLOAT:
        return Number(ast.value);
      case Kind.NULL:
        return null;
      case Kind.LIST:
        return ast.values.map((v) => literal(v, variables));
      case Kind.OBJECT:
        return Object.fromEntries(ast.fields.map((f) => [f.name.value, literal(f.value, variables)]));
      case Kind.VARIABLE:
        return variables?.[ast.name.value];
      default:
        throw new GraphQLError('Json literal not understood', { extensions: { code: 'BAD_USER_INPUT' } });
    }
  },
});

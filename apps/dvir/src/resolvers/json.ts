import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';

/** Any JSON value, passed through unchanged (same definition as fleet-core's Json). */
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

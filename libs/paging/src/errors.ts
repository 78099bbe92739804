import { GraphQLError } from 'graphql';

export function badInput(message: string, extra: Record<string, unknown> = {}): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT', ...extra } });
}

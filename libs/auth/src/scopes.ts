/**
 * The scope catalog: one source for what each scope grants, read by the SSO (consent page,
 * application pages, discovery, the scopes a client may request) and by every GraphQL server
 * (the gateway before planning, each subgraph before executing), so what a user consents to is
 * exactly what the application gets.
 * - `public` (the spec's default, granted by the password grant) and `read`: everything the user
 *   can see in the graph, read-only;
 * - `profile`: the signed-in account's own profile fields (`account { id email fullName ... }`,
 *   `account(id:)` only with the caller's own id), nothing of the fleet and nobody else's profile;
 * - `write`: changes where the service allows them; the graph has none yet, so alone it reads
 *   nothing.
 * A token's graph access is the widest its scopes give. A request asking more is refused whole,
 * before anything is fetched: HTTP 403, `extensions.code: INSUFFICIENT_SCOPE`, naming the field
 * and the scopes that would allow it.
 */
import {
  GraphQLError,
  Kind,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';

export type GraphAccess = 'all' | 'profile' | 'none';

export interface ScopeDefinition {
  name: string;
  /** Consent and application pages: a short title and exactly what it unlocks. */
  title: string;
  description: string;
  graph: GraphAccess;
}

export const SCOPES: readonly ScopeDefinition[] = [
  {
    name: 'public',
    title: 'Your profile and everything you can see in your fleet (read-only)',
    description:
      'Your name, email address and language, and the fleet data of your groups: vehicles, devices, drivers, trips and positions, inspections, maintenance and fuel transactions. Nothing can be changed.',
    graph: 'all',
  },
  {
    name: 'read',
    title: 'Read everything you can see in your fleet',
    description:
      'The fleet data of your groups: vehicles, devices, drivers, trips and positions, inspections, maintenance and fuel transactions, and your profile. Nothing can be changed.',
    graph: 'all',
  },
  {
    name: 'profile',
    title: 'Your profile only',
    description:
      'Your own name, email address, language and time zone; nobody else’s profile and nothing of your fleet.',
    graph: 'profile',
  },
  {
    name: 'write',
    title: 'Change your fleet data',
    description:
      'Make changes on your behalf where the service allows it (none today: alone, this scope reads nothing).',
    graph: 'none',
  },
];

export const SCOPE_NAMES = SCOPES.map((scope) => scope.name);
export const INSUFFICIENT_SCOPE = 'INSUFFICIENT_SCOPE';

/** The account fields a `profile` token may read (through the `account` root field, its own only). */
export const PROFILE_FIELDS = new Set([
  '__typename',
  'id',
  'email',
  'fullName',
  'shortName',
  'language',
  'timeZone',
]);

const RANK: Record<GraphAccess, number> = { none: 0, profile: 1, all: 2 };

export function graphAccess(scopes: readonly string[]): GraphAccess {
  let best: GraphAccess = 'none';
  for (const name of scopes) {
    const access = SCOPES.find((scope) => scope.name === name)?.graph ?? 'none';
    if (RANK[access] > RANK[best]) best = access;
  }
  return best;
}

const scopesFor = (access: GraphAccess) =>
  SCOPES.filter((scope) => RANK[scope.graph] >= RANK[access]).map((scope) => scope.name);

function refusal(field: string, needs: GraphAccess, what = field): GraphQLError {
  const allowed = scopesFor(needs);
  return new GraphQLError(`${what} needs one of the scopes ${allowed.join(', ')}, which this token lacks.`, {
    extensions: { code: INSUFFICIENT_SCOPE, field, scopes: allowed, http: { status: 403 } },
  });
}

/** Who is asking: a profile token reads only the account of its own `uid`. */
export interface ScopeCaller {
  uid: string;
  scopes: readonly string[];
}

type Variables = Readonly<Record<string, unknown>> | null | undefined;

const UNKNOWN = Symbol('unknown');

/**
 * The value an argument stands for: a literal, a variable's value, or (variable not given) its
 * default in the operation; `unknown` when it is none of those (a list or object literal).
 */
function argumentValue(value: ValueNode, operation: OperationDefinitionNode, variables: Variables): unknown {
  if (value.kind === Kind.NULL) return null;
  if (value.kind === Kind.STRING || value.kind === Kind.INT) return value.value;
  if (value.kind !== Kind.VARIABLE) return UNKNOWN;
  const name = value.name.value;
  if (variables && Object.hasOwn(variables, name)) return variables[name];
  const definition = operation.variableDefinitions?.find((d) => d.variable.name.value === name);
  return definition?.defaultValue ? argumentValue(definition.defaultValue, operation, variables) : null;
}

/** True when `account(...)` names no account (the caller's, by default) or the caller's own. */
function isOwnAccount(
  field: FieldNode,
  operation: OperationDefinitionNode,
  caller: ScopeCaller,
  variables: Variables,
) {
  const id = field.arguments?.find((argument) => argument.name.value === 'id');
  if (!id) return true;
  const value = argumentValue(id.value, operation, variables);
  return value === null || (typeof value === 'string' && value.toLowerCase() === caller.uid.toLowerCase());
}

/**
 * The first field of the document this caller's scopes do not allow, as the error to answer. A
 * `profile` token reads `account` (its own: no `id`, or the caller's) and PROFILE_FIELDS only.
 */
export function checkScopes(
  document: DocumentNode,
  caller: ScopeCaller,
  variables?: Variables,
): GraphQLError | undefined {
  const access = graphAccess(caller.scopes);
  if (access === 'all') return undefined;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions)
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);

  /** Fields of a selection set, fragments expanded (a fragment cycle counts once). */
  const fieldsOf = (set: SelectionSetNode | undefined, seen = new Set<string>()): FieldNode[] => {
    const out: FieldNode[] = [];
    for (const selection of set?.selections ?? []) {
      if (selection.kind === Kind.FIELD) out.push(selection);
      else if (selection.kind === Kind.INLINE_FRAGMENT) out.push(...fieldsOf(selection.selectionSet, seen));
      else if (!seen.has(selection.name.value)) {
        seen.add(selection.name.value);
        out.push(...fieldsOf(fragments.get(selection.name.value)?.selectionSet, seen));
      }
    }
    return out;
  };

  for (const operation of document.definitions) {
    if (operation.kind !== Kind.OPERATION_DEFINITION) continue;
    for (const root of fieldsOf(operation.selectionSet)) {
      const name = root.name.value;
      // __typename and the schema itself (introspection) are no one's data.
      if (name.startsWith('__')) continue;
      if (access === 'none' || name !== 'account') return refusal(name, 'all');
      if (!isOwnAccount(root, operation, caller, variables))
        return refusal(
          'account(id)',
          'all',
          'Reading an account other than the signed-in one (account(id:))',
        );
      for (const field of fieldsOf(root.selectionSet))
        if (!PROFILE_FIELDS.has(field.name.value)) return refusal(`account.${field.name.value}`, 'all');
    }
  }
  return undefined;
}

/**
 * The scope catalog: one source for what each scope grants, read by the SSO (consent page,
 * application pages, discovery, the scopes a client may request) and by every GraphQL server
 * (the gateway before planning, each subgraph before executing), so what a user consents to is
 * exactly what the application gets.
 * - `public` (the spec's default, granted by the password grant) and `read`: everything the user
 *   can see in the graph, read-only;
 * - `profile`: the signed-in account's own profile fields (`account { id email fullName ... }`),
 *   nothing of the fleet;
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
  type FragmentDefinitionNode,
  type SelectionSetNode,
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
    description: 'Your name, email address, language and time zone. Nothing of your fleet.',
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

/** The account fields a `profile` token may read (through the `account` root field only). */
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

function refusal(field: string, needs: GraphAccess): GraphQLError {
  const allowed = scopesFor(needs);
  return new GraphQLError(`${field} needs one of the scopes ${allowed.join(', ')}, which this token lacks.`, {
    extensions: { code: INSUFFICIENT_SCOPE, field, scopes: allowed, http: { status: 403 } },
  });
}

/** The first field of the document a token with this access may not read, as the error to answer. */
export function checkScopes(document: DocumentNode, scopes: readonly string[]): GraphQLError | undefined {
  const access = graphAccess(scopes);
  if (access === 'all') return undefined;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions)
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);

  /** Fields of a selection set, fragments expanded (a fragment cycle counts once). */
  const fieldsOf = (set: SelectionSetNode, seen = new Set<string>()) => {
    const out: { name: string; selectionSet: SelectionSetNode | undefined }[] = [];
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD)
        out.push({ name: selection.name.value, selectionSet: selection.selectionSet });
      else if (selection.kind === Kind.INLINE_FRAGMENT) out.push(...fieldsOf(selection.selectionSet, seen));
      else if (!seen.has(selection.name.value)) {
        seen.add(selection.name.value);
        const fragment = fragments.get(selection.name.value);
        if (fragment) out.push(...fieldsOf(fragment.selectionSet, seen));
      }
    }
    return out;
  };

  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    for (const root of fieldsOf(definition.selectionSet)) {
      // __typename and the schema itself (introspection) are no one's data.
      if (root.name.startsWith('__')) continue;
      if (access === 'none' || root.name !== 'account') return refusal(root.name, 'all');
      for (const field of fieldsOf(root.selectionSet ?? { kind: Kind.SELECTION_SET, selections: [] }))
        if (!PROFILE_FIELDS.has(field.name)) return refusal(`account.${field.name}`, 'all');
    }
  }
  return undefined;
}

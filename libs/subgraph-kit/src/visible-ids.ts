/**
 * Ids are data. A field holding the id of another object (`vehicleId`, `resolvedByUserId`,
 * `inspectionTemplateId`...) answers null when the caller may not see that object, exactly as the
 * object itself would be null; and a reference to another subgraph's entity (`vehicle`, `driver`)
 * is withheld the same way, because the gateway answers `driver { id }` from the reference alone,
 * without asking the entity's owner.
 *
 * Whether an object is visible comes from a per-request lookup by id answering something truthy
 * for a visible one: a subgraph's own lookups (its rows by id, filtered by visibility), or
 * libs/visibility's fleetVisibility for fleet-core's objects (vehicles, devices, drivers, groups,
 * accounts): one statement per kind and request level.
 */

/** Something answering, for an id, a truthy value when the caller sees that object. */
export interface VisibilityLookup {
  load(id: string): Promise<unknown>;
}

type Row = Record<string, unknown>;

/**
 * Which lookup tells whether the object a row's id names is visible; `undefined` when that value
 * names no object of the graph (a rule version where a user id may also stand, say).
 */
export type LookupOf<C> = (context: C, row: Row) => VisibilityLookup | undefined;

/** The id held in `row[field]` when the object it names is visible, else null. */
export async function visibleIdOf<C>(
  row: Row,
  field: string,
  context: C,
  lookup: LookupOf<C>,
): Promise<string | null> {
  const id = row[field];
  if (id == null) return null;
  const found = lookup(context, row);
  if (!found) return String(id);
  return (await found.load(String(id))) ? String(id) : null;
}

/** Resolver of an `xId` field: the id, or null when its object is not visible. */
export const visibleId =
  <C>(field: string, lookup: LookupOf<C>) =>
  (row: Row, _args: unknown, context: C): Promise<string | null> =>
    visibleIdOf(row, field, context, lookup);

/** Resolver of a reference to another subgraph's entity: `{ __typename, id }`, or null when not visible. */
export const visibleReference =
  <C>(typename: string, field: string, lookup: LookupOf<C>) =>
  async (row: Row, _args: unknown, context: C): Promise<{ __typename: string; id: string } | null> => {
    const id = await visibleIdOf(row, field, context, lookup);
    return id === null ? null : { __typename: typename, id };
  };

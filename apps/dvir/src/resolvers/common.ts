import { badInput, isUuid, type Page } from '@fleetgraph/paging';
import type { SubgraphContext } from '@fleetgraph/subgraph-kit';
import type { DvirLoaders } from '../loaders';
import type { RelationName } from '../data/relation-specs';
import type { Row } from '../data/tables';

export type Ctx = SubgraphContext<DvirLoaders>;
export type { Row };

/** A filter id argument: absent, or a UUID (BAD_USER_INPUT otherwise: it could match nothing). */
export function idArg(name: string, value: unknown): string | undefined {
  if (value == null) return undefined;
  if (typeof value !== 'string' || !isUuid(value)) {
    throw badInput(`${name} must be a UUID (got ${JSON.stringify(value)}).`, { argument: name });
  }
  return value.toLowerCase();
}

/** Rows carrying the language their texts are asked in. */
export const withLocale = (rows: Row[], locale: string | null | undefined): Row[] =>
  locale ? rows.map((row) => ({ ...row, __locale: locale })) : rows;

export function localizedPage(page: Page<Row>, locale: string | null | undefined): Page<Row> {
  return locale ? { ...page, list: withLocale(page.list, locale) } : page;
}

/** A nested paged field served by a relation loader; `locale`, when given, is carried to the rows. */
export const relationPage =
  (name: RelationName, parentKey: (parent: Row) => string = (p) => p.id) =>
  async (parent: Row, args: Record<string, unknown>, { loaders }: Ctx) => {
    const { locale, ...rest } = args;
    const page = await loaders.relations[name].load({ parentId: parentKey(parent), args: rest });
    return localizedPage(page, (locale as string | undefined) ?? parent.__locale);
  };

export const reference = (typename: string, id: unknown) =>
  id == null ? null : { __typename: typename, id: String(id) };

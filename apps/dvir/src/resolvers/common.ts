import type { GraphQLResolveInfo } from 'graphql';
import { badInput, isUuid, type Page } from '@fleetgraph/paging';
import { listProjection, type SubgraphContext } from '@fleetgraph/subgraph-kit';
import type { DvirReader } from '../reader';
import { relations, type RelationName } from '../data/relation-specs';
import type { Row } from '../data/tables';

export type Ctx = SubgraphContext<DvirReader>;
export type { Row };

/** A filter id argument: absent, or a UUID (BAD_USER_INPUT otherwise: it could match nothing). */
export function idArg(name: string, value: unknown): string | undefined {
  if (value == null) return undefined;
  if (typeof value !== 'string' || !isUuid(value)) {
    throw badInput(`${name} must be a UUID (got ${JSON.stringify(value)}).`, { argument: name });
  }
  return value.toLowerCase();
}

/**
 * A root page whose texts are asked in `locale`. Its rows come from its own statement and belong
 * to this call alone, so they carry the language in place (no copy per row).
 */
export function localizedPage(page: Page<Row>, locale: string | null | undefined): Page<Row> {
  if (locale) for (const row of page.list) row.__locale = locale;
  return page;
}

/** The mark of rows whose texts are asked in `locale` (none: no locale asked). */
const localeMarks = new Map<string, { __locale: string }>();
const localeMark = (locale: string) => {
  let mark = localeMarks.get(locale);
  if (!mark) localeMarks.set(locale, (mark = Object.freeze({ __locale: locale })));
  return mark;
};

/**
 * A nested paged field served by a relation loader. `locale` (the field's, else the parent's)
 * marks the rows in place: pages of different locales are loaded apart, so no row is copied.
 * Only the columns the selection reads are selected (TableSpec.fieldNeeds).
 */
export const relationPage =
  (name: RelationName, parentKey: (parent: Row) => string = (p) => p.id) =>
  (parent: Row, args: Record<string, unknown>, { reader }: Ctx, info: GraphQLResolveInfo) => {
    const { locale, ...rest } = args;
    const language = (locale as string | null | undefined) ?? parent.__locale;
    return reader.relations.get(name).load({
      parentId: parentKey(parent),
      args: rest,
      fields: listProjection(relations[name].child, info),
      ...(language ? { mark: localeMark(language) } : {}),
    });
  };

/** What the maintenance resolvers share: the context type and the checks of their filters. */
import { badInput } from '@fleetgraph/paging';
import type { SubgraphContext } from '@fleetgraph/subgraph-kit';
import type { TemplateRule, UpcomingItem } from '../domain/upcoming';
import { isUuid, type MaintenanceReader } from '../reader';

export type Ctx = SubgraphContext<MaintenanceReader>;

export function checkIds(name: string, ids: unknown): string[] | null {
  if (ids == null) return null;
  const list = ids as string[];
  const bad = list.findIndex((id) => !isUuid(id));
  if (bad >= 0) throw badInput(`${name}[${bad}] is not a valid id (a uuid).`, { argument: name });
  return list.map((id) => id.toLowerCase());
}

export function checkCriticality(value: unknown): number | null {
  if (value == null) return null;
  if (!Number.isInteger(value) || (value as number) < 1 || (value as number) > 9)
    throw badInput('minCriticality must be between 1 and 9.', { argument: 'minCriticality' });
  return value as number;
}

export type ItemFilter = {
  systems?: string[] | null;
  templateIds?: string[] | null;
  minCriticality?: number | null;
};

/** The templates a filter keeps, or undefined when it keeps them all. */
export function wantedTemplates(f: ItemFilter): ((t: TemplateRule) => boolean) | undefined {
  if (!f.systems && !f.templateIds) return undefined;
  return (t) =>
    (!f.systems || f.systems.includes(t.system)) &&
    (!f.templateIds || f.templateIds.includes(t.id.toLowerCase()));
}

export function filterItems(items: UpcomingItem[], f: ItemFilter) {
  const wanted = wantedTemplates(f);
  return items.filter(
    (i) =>
      (!wanted || wanted(i.template)) &&
      (f.minCriticality == null || (i.criticality?.criticality ?? 0) >= f.minCriticality),
  );
}

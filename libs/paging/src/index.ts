export { CursorCodec, cursorPageSize, fingerprint, type Cursor } from './cursor';
export {
  pageRequest,
  toPage,
  emptyPage,
  type Page,
  type PageArgs,
  type PageRequest,
  type PageRules,
} from './page';
export { applyKeyset, whereAfter, type KeysetOrder } from './keyset';
export { badInput } from './errors';
export { from, keyOf, selectColumns, type TableSpec } from './table-spec';
export { pageOf, type RootPageOptions } from './root-page';
export { projectedFields, MAX_PROJECTIONS } from './projection';
export {
  relationLoader,
  relationLoaders,
  firstPageStatement,
  type RelationLoaders,
  rowsPerParent,
  type RelationSpec,
  type RelationWay,
  type RelationKey,
} from './relations';
export {
  anyOf,
  byKey,
  keyLookup,
  normalizeKey,
  isUuid,
  uuidsOnly,
  type KeyKind,
  type KeyLookup,
  type LookupLoader,
  type LookupRows,
} from './by-key';

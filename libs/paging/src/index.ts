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
export { applyKeyset, type KeysetOrder } from './keyset';
export { badInput } from './errors';

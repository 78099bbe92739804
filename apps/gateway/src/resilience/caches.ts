/** Explicitly sized caches of the request path. */
import type { DocumentNode } from 'graphql';
import { InMemoryLRUCache } from '@apollo/utils.keyvaluecache';

/**
 * Apollo Server's store of parsed and validated documents (a repeated query skips parse and
 * validation), bounded to about `mb` MiB of serialized documents.
 */
export function documentStore(mb: number): InMemoryLRUCache<DocumentNode> {
  return new InMemoryLRUCache<DocumentNode>({
    maxSize: mb * 1024 * 1024,
    sizeCalculation: InMemoryLRUCache.sizeCalculation,
  });
}

/**
 * The request being served, for code that has no request object at hand (log lines written
 * through the server's root logger by libraries, e.g. Apollo Server's). createServer enters it
 * once the body is parsed, so everything the route handler does runs inside it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export const requestStore = new AsyncLocalStorage<string>();

/** The id of the request whose work is running now, if any. */
export function currentRequestId(): string | undefined {
  return requestStore.getStore();
}

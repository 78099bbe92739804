/**
 * A cache hit answered from the stored bytes: the stored `data` text goes into the response as it
 * is, without JSON.parse and re-serialisation (a quarter of a hit's CPU on the devices page).
 * So does a subgraph answer passed through (engine/result-shaping/pass-through.ts), and a miss stores
 * that text as it is. The result carries `data` as a StoredJson; the server's stringifyResult
 * writes its text verbatim. Anything else that serialises it (JSON.stringify) gets the parsed
 * value through toJSON, so it is correct everywhere, and fast where it matters.
 */
import type { FormattedExecutionResult } from 'graphql';

export class StoredJson {
  constructor(
    /** JSON text, valid as it is stored (it was written by JSON.stringify). */
    readonly text: string,
  ) {}

  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

const DATA_PREFIX = '{"data":';

/**
 * The text of `data` in a response body written as `{"data":...}` (by the cache, or by a subgraph
 * whose answer has nothing else); undefined for a body of another shape.
 */
export function dataText(body: string): string | undefined {
  return body.startsWith(DATA_PREFIX) && body.endsWith('}') ? body.slice(DATA_PREFIX.length, -1) : undefined;
}

/**
 * The `data` of a stored response body (`{"data":...}`, as the cache writes it) as StoredJson; a
 * body of another shape is parsed.
 */
export function storedResult(body: string): FormattedExecutionResult {
  const data = dataText(body);
  if (data !== undefined) return { data: new StoredJson(data) as never };
  return JSON.parse(body) as FormattedExecutionResult;
}

/** The body the cache stores for an answer's `data`: its text as it is when it is StoredJson. */
export function storedBody(data: unknown): string {
  return data instanceof StoredJson ? `${DATA_PREFIX}${data.text}}` : JSON.stringify({ data });
}

/**
 * Apollo Server's stringifyResult: its default (JSON.stringify and a newline), except that a
 * StoredJson `data` is written as its text. The fields keep Apollo's order (errors, data,
 * extensions).
 */
export function stringifyResult(result: FormattedExecutionResult): string {
  const data: unknown = result.data;
  if (!(data instanceof StoredJson)) return `${JSON.stringify(result)}\n`;
  const errors = result.errors === undefined ? '' : `"errors":${JSON.stringify(result.errors)},`;
  const extensions =
    result.extensions === undefined ? '' : `,"extensions":${JSON.stringify(result.extensions)}`;
  return `{${errors}"data":${data.text}${extensions}}\n`;
}

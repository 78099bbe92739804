/**
 * `json`/`jsonb` values that repeat across rows, parsed once per distinct text.
 * dvir copies an item's translation map (six languages of name and description, ~800 bytes) onto
 * every answer of a report, so a page of 50 reports parsed the same few dozen texts about 1,000
 * times per request, plus the garbage of their objects: a large share of the request's CPU in a
 * profile (tools/bench/src/subgraph-engine.ts with BENCH_SUBGRAPH=dvir).
 * With `repeatedJson` (KnexOptions) a service's connections read these columns through a bounded
 * memo keyed by the text. A value may thus be shared by many rows and requests, so it is deeply
 * frozen: code that would modify it throws instead of changing what other rows see. Texts longer
 * than `maxTextLength` are parsed on every read (and frozen too, for one behaviour).
 */
import pg from 'pg';

export interface RepeatedJsonOptions {
  /** Distinct texts kept (default 2,000); the memo starts over when full. */
  maxEntries?: number;
  /** Longer texts are not kept (default 8,192 characters): the memo holds at most about 16 MB. */
  maxTextLength?: number;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** A JSON parser that returns the same frozen value for the same text. */
export function memoizedJsonParser(options: RepeatedJsonOptions = {}): (text: string) => unknown {
  const maxEntries = options.maxEntries ?? 2_000;
  const maxTextLength = options.maxTextLength ?? 8_192;
  const memo = new Map<string, unknown>();
  return (text) => {
    if (text.length > maxTextLength) return deepFreeze(JSON.parse(text));
    const known = memo.get(text);
    if (known !== undefined) return known;
    if (memo.size >= maxEntries) memo.clear();
    const value = deepFreeze(JSON.parse(text));
    memo.set(text, value);
    return value;
  };
}

/** node-postgres type parsers for one client: json/jsonb memoized, every other type as usual. */
export function repeatedJsonTypes(options: RepeatedJsonOptions = {}) {
  const parse = memoizedJsonParser(options);
  const jsonTypes = new Set<number>([pg.types.builtins.JSON, pg.types.builtins.JSONB]);
  return {
    getTypeParser(oid: number, format?: string) {
      if (jsonTypes.has(oid) && format !== 'binary') return parse;
      return pg.types.getTypeParser(oid, format as 'text' | 'binary');
    },
  };
}

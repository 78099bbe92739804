/**
 * The SQL statements one request sends, as node-postgres sends them, grouped in waves: a wave is
 * every statement sent before any of the wave's own statements answered (the page, then its
 * relations' lookups side by side). The subgraph engine benchmark replays them in floor-peer.ts.
 * Statements are grouped as they are sent, so connections should be open first (a statement
 * waiting for a new connection is sent once it opens). Patches node-postgres's Query in this
 * process for the time of `run` only.
 */
import pg from 'pg';

export interface RecordedStatement {
  text: string;
  values: unknown[];
}

interface QueryInternals {
  text: string;
  values?: unknown[];
  submit(connection: unknown): unknown;
  handleReadyForQuery(message: unknown): unknown;
}

export async function recordStatements(run: () => Promise<void>): Promise<RecordedStatement[][]> {
  const proto = pg.Query.prototype as unknown as QueryInternals;
  const { submit, handleReadyForQuery } = proto;
  const waves: RecordedStatement[][] = [];
  let answered = 0;
  let waveStart = 0;
  proto.submit = function (this: QueryInternals, connection: unknown) {
    // A statement sent after one of the current wave answered depends on it: a new wave.
    if (waves.length === 0 || answered > waveStart) {
      waves.push([]);
      waveStart = answered;
    }
    waves.at(-1)!.push({ text: this.text, values: [...(this.values ?? [])] });
    return submit.call(this, connection);
  };
  proto.handleReadyForQuery = function (this: QueryInternals, message: unknown) {
    answered++;
    return handleReadyForQuery.call(this, message);
  };
  try {
    await run();
  } finally {
    proto.submit = submit;
    proto.handleReadyForQuery = handleReadyForQuery;
  }
  return waves;
}

/**
 * A reader thread: reads one picture at a time (read.ts) with its own warm tesseract worker, and
 * answers the main thread. A GraphQL error (a refused picture) crosses as its message and
 * extensions; anything else as an internal failure.
 */
import { parentPort } from 'node:worker_threads';
import { GraphQLError } from 'graphql';
import { OcrPool } from './ocr';
import { readPlate, type AlprInput } from './read';

export interface ReadRequest {
  id: number;
  input: AlprInput;
}

export type ReadAnswer =
  | { id: number; ok: true; reading: Awaited<ReturnType<typeof readPlate>> }
  | {
      id: number;
      ok: false;
      refused?: { message: string; extensions: Record<string, unknown> };
      failed?: string;
    };

const ocr = new OcrPool(1);
const port = parentPort!;

port.on('message', (request: ReadRequest) => {
  readPlate(ocr, request.input).then(
    (reading) => port.postMessage({ id: request.id, ok: true, reading } satisfies ReadAnswer),
    (error: unknown) =>
      port.postMessage(
        (error instanceof GraphQLError
          ? {
              id: request.id,
              ok: false,
              refused: { message: error.message, extensions: { ...error.extensions } },
            }
          : { id: request.id, ok: false, failed: (error as Error).message }) satisfies ReadAnswer,
      ),
  );
});

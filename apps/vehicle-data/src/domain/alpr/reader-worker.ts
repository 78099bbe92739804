/**
 * A reader thread: warms its own tesseract worker as it starts (then says `ready`), reads one
 * picture at a time (read.ts) and answers the main thread. A GraphQL error (a refused picture)
 * crosses as its message and extensions; anything else as an internal failure.
 */
import { parentPort } from 'node:worker_threads';
import { GraphQLError } from 'graphql';
import { OcrPool } from './ocr';
import { readPlate } from './read';
import { READY, type ReadAnswer, type ReadRequest } from './reader-protocol';

const ocr = new OcrPool(1);
const port = parentPort!;
void ocr.warm().then(
  () => port.postMessage(READY),
  () => port.postMessage(READY),
);

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

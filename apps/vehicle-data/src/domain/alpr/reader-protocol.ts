/** The messages between the main thread and a reader thread (reader.ts, reader-worker.ts). */
import type { AlprInput, PlateReading } from './read';

export interface ReadRequest {
  id: number;
  input: AlprInput;
}

/** Sent once the thread's OCR is warm: readings are timed from then on. */
export const READY = 'ready';

export type ReadAnswer =
  | { id: number; ok: true; reading: PlateReading | null }
  | {
      id: number;
      ok: false;
      refused?: { message: string; extensions: Record<string, unknown> };
      failed?: string;
    };

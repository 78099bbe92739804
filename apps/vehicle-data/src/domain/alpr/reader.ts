/**
 * Plate reading off the event loop: a pool of reader threads (reader-worker.ts), each reading one
 * picture at a time with its own tesseract worker, so decoding, locating and OCR never hold up the
 * other queries vehicle-data serves.
 * - A reading past its time budget is stopped (its thread terminated, a new one started when
 *   next needed): PROCESSING_TIME_EXCEEDED.
 * - A reading whose request was abandoned stops the same way, or leaves the queue if not started.
 * - At most `queueMax` pictures wait for a thread; more are refused at once: SUBGRAPH_BUSY
 *   (retryable, with the seconds to wait).
 */
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { GraphQLError } from 'graphql';
import { RequestAbandoned } from '@fleetgraph/db';
import { SERVICE_NODE_FLAGS } from '@fleetgraph/service-kit';
import type { AlprInput, PlateReading } from './read';
import { READY, type ReadAnswer, type ReadRequest } from './reader-protocol';

export interface PlateReaderOptions {
  /** Reader threads (each reads one picture at a time). */
  threads: number;
  /** Pictures waiting for a thread at most. */
  queueMax: number;
  /** A reading is stopped after this many milliseconds. */
  timeBudgetMs: number;
}

/** Seconds a caller refused for a full queue is told to wait. */
export const READER_BUSY_RETRY_SECONDS = 2;

interface Job {
  input: AlprInput;
  signal: AbortSignal;
  resolve(reading: PlateReading | null): void;
  reject(error: unknown): void;
  /** Takes the job out of the queue when its caller leaves before it started. */
  leave(): void;
}

/** The worker's file beside this one, as this module runs: TypeScript under tsx, JavaScript built. */
const EXTENSION = extname(fileURLToPath(import.meta.url));
const WORKER_FILE = new URL(`./reader-worker${EXTENSION}`, import.meta.url);

/**
 * The process's flags a thread may take: a thread refuses V8 and per-process flags (the
 * services' own, SERVICE_NODE_FLAGS, which `npm start` and `--processes` pass) and would fail to
 * start; the test runner's flags are not for it either.
 */
export function workerExecArgv(execArgv: readonly string[]): string[] {
  const perProcess = new Set(SERVICE_NODE_FLAGS.map((flag) => flag.split('=')[0]));
  return execArgv.filter((flag) => !flag.startsWith('--test') && !perProcess.has(flag.split('=')[0]!));
}

/**
 * A reader thread. Built, the worker file is JavaScript and starts as it is; run from TypeScript
 * (tsx), the worker registers tsx's loader in its own thread before importing its file, since Node
 * applies loader hooks registered by flags in the main thread to a worker's own imports only.
 */
function startWorker(): Worker {
  const execArgv = workerExecArgv(process.execArgv);
  if (EXTENSION !== '.ts') return new Worker(WORKER_FILE, { execArgv });
  const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(WORKER_FILE.href)}); })`;
  return new Worker(boot, { eval: true, execArgv });
}

class ReaderThread {
  private worker: Worker | undefined;
  private warm: Promise<Worker> | undefined;
  busy = false;
  private next = 0;

  constructor(private readonly timeBudgetMs: number) {}

  /** The thread, once its OCR is warm: warming up is not part of any picture's budget. */
  private ready(): Promise<Worker> {
    this.warm ??= new Promise<Worker>((resolve, reject) => {
      const worker = startWorker();
      this.worker = worker;
      const onReady = (message: unknown) => {
        if (message !== READY) return;
        worker.off('message', onReady);
        worker.off('error', onError);
        resolve(worker);
      };
      const onError = (error: Error) => {
        this.warm = undefined;
        this.worker = undefined;
        reject(error);
      };
      worker.on('message', onReady);
      worker.once('error', onError);
    });
    return this.warm;
  }

  /** Reads one picture; the thread is terminated when the budget passes or the caller leaves. */
  async read(job: Job): Promise<PlateReading | null> {
    this.busy = true;
    let worker: Worker;
    try {
      worker = await this.ready();
    } catch (error) {
      this.busy = false;
      throw error;
    }
    if (job.signal.aborted) {
      this.busy = false;
      throw new RequestAbandoned();
    }
    const id = ++this.next;
    return new Promise<PlateReading | null>((resolve, reject) => {
      const stop = (error: Error) => {
        finish();
        void this.terminate();
        reject(error);
      };
      const timer = setTimeout(
        () =>
          stop(
            new GraphQLError(
              `Reading this picture took longer than its ${this.timeBudgetMs / 1000} s budget; send a sharper or smaller picture of the plate.`,
              { extensions: { code: 'PROCESSING_TIME_EXCEEDED', argument: 'vehiclePicture' } },
            ),
          ),
        this.timeBudgetMs,
      );
      const onAbort = () => stop(new RequestAbandoned());
      const onMessage = (answer: ReadAnswer) => {
        if (answer.id !== id) return;
        finish();
        if (answer.ok) resolve(answer.reading);
        else if (answer.refused)
          reject(new GraphQLError(answer.refused.message, { extensions: answer.refused.extensions }));
        else reject(new Error(`plate reading failed: ${answer.failed}`));
      };
      const onError = (error: Error) => {
        finish();
        this.worker = undefined;
        this.warm = undefined;
        reject(error);
      };
      const finish = () => {
        clearTimeout(timer);
        job.signal.removeEventListener('abort', onAbort);
        worker.off('message', onMessage);
        worker.off('error', onError);
        this.busy = false;
      };
      job.signal.addEventListener('abort', onAbort, { once: true });
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.postMessage({ id, input: job.input } satisfies ReadRequest);
    });
  }

  async terminate(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.warm = undefined;
    await worker?.terminate();
  }
}

export class PlateReader {
  private readonly threads: ReaderThread[];
  private readonly queue: Job[] = [];

  constructor(private readonly options: PlateReaderOptions) {
    this.threads = Array.from({ length: options.threads }, () => new ReaderThread(options.timeBudgetMs));
  }

  read(input: AlprInput, signal: AbortSignal): Promise<PlateReading | null> {
    if (this.queue.length >= this.options.queueMax && !this.threads.some((thread) => !thread.busy))
      return Promise.reject(
        new GraphQLError(
          `Plate recognition is busy with other pictures; retry in ${READER_BUSY_RETRY_SECONDS} s.`,
          {
            extensions: {
              code: 'SUBGRAPH_BUSY',
              retryable: true,
              retryAfterSeconds: READER_BUSY_RETRY_SECONDS,
            },
          },
        ),
      );
    return new Promise((resolve, reject) => {
      const job: Job = {
        input,
        signal,
        resolve,
        reject,
        leave: () => {
          const at = this.queue.indexOf(job);
          if (at >= 0) this.queue.splice(at, 1);
          reject(new RequestAbandoned());
        },
      };
      signal.addEventListener('abort', job.leave, { once: true });
      this.queue.push(job);
      this.dispatch();
    });
  }

  private dispatch(): void {
    for (const thread of this.threads) {
      if (thread.busy) continue;
      const job = this.queue.shift();
      if (!job) return;
      job.signal.removeEventListener('abort', job.leave);
      thread
        .read(job)
        .then(job.resolve, job.reject)
        .finally(() => this.dispatch());
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.threads.map((thread) => thread.terminate()));
  }
}

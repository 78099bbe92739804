/**
 * A warm pool of tesseract.js workers shared by every request of the process: created on first
 * use (the English LSTM data comes from @tesseract.js-data/eng — explicit langPath, no cache, no
 * download), reused across requests through tesseract's scheduler, terminated by close().
 */
import { createRequire } from 'node:module';
import { createScheduler, createWorker, PSM, type RecognizeResult, type Scheduler } from 'tesseract.js';

const require = createRequire(import.meta.url);
const ENG = require('@tesseract.js-data/eng') as { langPath: string; gzip: boolean };
export const PLATE_CHARACTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789- ';

export class OcrPool {
  private scheduler: Promise<Scheduler> | null = null;
  constructor(private readonly size: number) {}

  private start(): Promise<Scheduler> {
    this.scheduler ??= (async () => {
      const scheduler = createScheduler();
      const workers = await Promise.all(
        Array.from({ length: this.size }, async () => {
          const worker = await createWorker('eng', 1, {
            langPath: ENG.langPath,
            gzip: ENG.gzip,
            cacheMethod: 'none',
          });
          await worker.setParameters({
            tessedit_pageseg_mode: PSM.SINGLE_LINE,
            tessedit_char_whitelist: PLATE_CHARACTERS,
            user_defined_dpi: '300',
          });
          return worker;
        }),
      );
      for (const worker of workers) scheduler.addWorker(worker);
      return scheduler;
    })();
    this.scheduler.catch(() => {
      this.scheduler = null;
    });
    return this.scheduler;
  }

  /** Starts the workers now rather than on the first picture. */
  async warm(): Promise<void> {
    await this.start();
  }

  async recognize(png: Buffer): Promise<RecognizeResult['data']> {
    const scheduler = await this.start();
    return (await scheduler.addJob('recognize', png, { rotateAuto: true })).data;
  }

  get started(): boolean {
    return this.scheduler !== null;
  }

  async close(): Promise<void> {
    const scheduler = this.scheduler;
    this.scheduler = null;
    if (scheduler) await (await scheduler).terminate();
  }
}

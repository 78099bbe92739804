/**
 * Reads one generated plate through the reader threads and prints its normalized text: run in a
 * child process started with the services' Node.js flags, as `npm start` starts vehicle-data.
 */
import { PlateReader } from '../domain/alpr/reader';
import { plateImage } from './plate-images';

const reader = new PlateReader({ threads: 1, queueMax: 1, timeBudgetMs: 60_000 });
try {
  const reading = await reader.read(
    { vehiclePicture: (await plateImage(process.argv[2]!)).toString('base64'), country: 'FR' },
    new AbortController().signal,
  );
  process.stdout.write(`${reading?.normalized ?? 'none'}\n`);
} finally {
  await reader.close();
}

/**
 * Reading a plate from a picture, without the database: picture checks (image.ts) -> plate
 * candidates by image processing (locate.ts) -> OCR of each candidate (ocr.ts; tesseract deskews
 * small rotations, and larger ones are retried at fixed angles) -> text candidates matched against
 * the country's plate formats -> the best match. It runs in a reader thread (reader.ts), off the
 * subgraph's event loop.
 */
import sharp from 'sharp';
import { badInput } from '@fleetgraph/paging';
import { checkPlate, countryFormats, normalizeCountry } from '../plate/formats';
import { decodeBase64, loadImage, type DecodedImage } from './image';
import { locatePlates, type Box } from './locate';
import type { OcrPool } from './ocr';

export interface AlprInput {
  vehiclePicture: string;
  country: string;
  region?: string | null;
  year?: number | null;
}

interface Match {
  text: string;
  normalized: string;
  confidence: number;
  box: Box;
}

/** Character line heights tried, in order: the picture's own size (at least 48 px), then 120 px. */
const heightsFor = (box: Box) => [...new Set([Math.max(48, Math.min(box.height, 400)), 120])];
const GOOD_ENOUGH = 75;

async function cropPng(image: DecodedImage, box: Box, angle: number, targetHeight: number): Promise<Buffer> {
  let pipeline = sharp(image.gray, {
    raw: { width: image.width, height: image.height, channels: 1 },
  }).extract({
    left: box.x,
    top: box.y,
    width: box.width,
    height: box.height,
  });
  if (angle !== 0) pipeline = sharp(await pipeline.png().toBuffer()).rotate(angle, { background: '#ffffff' });
  const scale = targetHeight / box.height;
  return sharp(await pipeline.png().toBuffer())
    .resize({ height: Math.round(Math.min(4, Math.max(0.25, scale)) * box.height), kernel: 'lanczos3' })
    .normalise()
    .extend({ top: 16, bottom: 16, left: 16, right: 16, background: '#ffffff' })
    .png()
    .toBuffer();
}

/** Lines and the whole text, cleaned; each checked against the country's formats. */
function candidates(text: string, lines: { text: string; confidence: number }[], pageConfidence: number) {
  const out: { text: string; confidence: number }[] = [];
  for (const l of lines) out.push({ text: l.text, confidence: l.confidence });
  out.push({ text: text.replace(/\n/g, ' '), confidence: pageConfidence });
  return out
    .map((c) => ({
      text: c.text
        .replace(/[^A-Z0-9\- ]/g, '')
        .replace(/\s+/g, ' ')
        .replace(/^[\s-]+|[\s-]+$/g, ''),
      confidence: c.confidence,
    }))
    .filter((c) => c.text.length >= 2);
}

function matchOf(countryKey: string, c: { text: string; confidence: number }, box: Box): Match | null {
  try {
    const { plate } = checkPlate(c.text, countryKey);
    return { text: c.text, normalized: plate, confidence: c.confidence, box };
  } catch {
    return null;
  }
}

export interface PlateReading extends Match {
  country: string;
  region: string | null;
  countryKey: string;
}

/** Reads the plate of a picture (no database): checks, localization, OCR, format match. */
export async function readPlate(
  ocr: Pick<OcrPool, 'recognize'>,
  input: AlprInput,
): Promise<PlateReading | null> {
  const country = normalizeCountry(input.country);
  const region = input.region?.trim().toUpperCase() || null;
  if (region && !/^[A-Z]{2}$/.test(region))
    throw badInput(`region must be a two-letter region code such as CA (got "${input.region}").`, {
      argument: 'region',
    });
  const countryKey = country === 'US' && region ? `US-${region}` : country;
  countryFormats(countryKey);
  const image = await loadImage(decodeBase64(input.vehiclePicture));

  const boxes = locatePlates(image.gray, image.width, image.height);
  let best: Match | null = null;
  const attempt = async (box: Box, angle: number, height: number) => {
    const data = await ocr.recognize(await cropPng(image, box, angle, height));
    const lines = (data.blocks ?? []).flatMap((b: any) => b.paragraphs.flatMap((p: any) => p.lines));
    for (const c of candidates(data.text ?? '', lines, data.confidence ?? 0)) {
      const m = matchOf(countryKey, c, box);
      if (m && (!best || m.confidence > best.confidence)) best = m;
    }
  };
  const good = () => best !== null && (best as Match).confidence >= GOOD_ENOUGH;
  search: for (const box of boxes) {
    for (const height of heightsFor(box)) {
      await attempt(box, 0, height);
      if (good()) break search;
    }
  }
  if (!best) {
    for (const angle of [-12, 12, -20, 20]) {
      for (const box of boxes.slice(0, 2)) await attempt(box, angle, 120);
      if (best) break;
    }
  }
  const found = best as Match | null;
  if (!found) return null;
  // Boxes were found on the picture as read; the answer is in the picture's own pixels.
  const box = scaleBox(found.box, image.scale);
  return { ...found, box, country, region: country === 'US' ? region : null, countryKey };
}

function scaleBox(box: Box, scale: number): Box {
  if (scale === 1) return box;
  return {
    x: Math.round(box.x / scale),
    y: Math.round(box.y / scale),
    width: Math.round(box.width / scale),
    height: Math.round(box.height / scale),
  };
}

/**
 * Checks of an uploaded vehicle picture, each with a message saying what is wrong:
 *   - base64 (a data: URL prefix is accepted), not empty, at most MAX_BYTES once decoded;
 *   - type from the magic bytes: JPEG or PNG; GIF is refused as unsupported, other types named when known;
 *   - decodable by sharp (a corrupt or truncated file is refused), between MIN and MAX dimensions
 *     and at most MAX_PIXELS: a small file can hold a huge picture, and decoding costs by pixels.
 * A picture over READ_PIXELS is read downscaled to it: a plate stays legible at that size, and the
 * work of locating it no longer grows with the camera's resolution.
 */
import sharp, { type Metadata } from 'sharp';
import { badInput } from '@fleetgraph/paging';

export const MAX_BYTES = 10 * 1024 * 1024;
export const MIN_SIDE = 48;
export const MAX_SIDE = 8000;
/** 24 megapixels: a 6000 x 4000 photograph. */
export const MAX_PIXELS = 24_000_000;
/** Pictures are read at most at 3 megapixels (2048 x 1536). */
export const READ_PIXELS = 3_145_728;

export type ImageType = 'jpeg' | 'png';

const KNOWN_UNSUPPORTED: [string, (b: Buffer) => boolean][] = [
  [
    'WebP',
    (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  ],
  ['BMP', (b) => b.subarray(0, 2).toString('latin1') === 'BM'],
  ['TIFF', (b) => ['II*\u0000', 'MM\u0000*'].includes(b.subarray(0, 4).toString('latin1'))],
  ['HEIC', (b) => b.subarray(4, 12).toString('latin1').startsWith('ftyphei')],
  ['PDF', (b) => b.subarray(0, 5).toString('latin1') === '%PDF-'],
];

export function decodeBase64(input: string): Buffer {
  const body = input.replace(/^data:[\w/+.-]+;base64,/, '').replace(/\s+/g, '');
  if (body === '')
    throw badInput('vehiclePicture is empty: send a base64-encoded JPEG or PNG image.', {
      argument: 'vehiclePicture',
    });
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(body))
    throw badInput('vehiclePicture is not valid base64.', { argument: 'vehiclePicture' });
  if (body.length > Math.ceil((MAX_BYTES * 4) / 3) + 4) {
    throw badInput(`vehiclePicture is too large: at most ${MAX_BYTES / 1024 / 1024} MB once decoded.`, {
      argument: 'vehiclePicture',
    });
  }
  return Buffer.from(body, 'base64');
}

export function imageType(bytes: Buffer): ImageType {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (
    bytes.length >= 8 &&
    bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    return 'png';
  const head = bytes.subarray(0, 6).toString('latin1');
  if (head === 'GIF87a' || head === 'GIF89a') {
    throw badInput('vehiclePicture is a GIF image: GIF is not supported; send a JPEG or PNG image.', {
      argument: 'vehiclePicture',
      imageType: 'gif',
    });
  }
  const known = KNOWN_UNSUPPORTED.find(([, test]) => test(bytes));
  if (known)
    throw badInput(
      `vehiclePicture is a ${known[0]} image, which is not supported; send a JPEG or PNG image.`,
      { argument: 'vehiclePicture' },
    );
  throw badInput(
    'vehiclePicture is not a JPEG or PNG image (its content is not a recognized image format).',
    { argument: 'vehiclePicture' },
  );
}

export interface DecodedImage {
  type: ImageType;
  width: number;
  height: number;
  /** 8-bit grayscale, EXIF orientation applied */
  gray: Buffer;
  /** Size read / size sent (1 unless the picture was over READ_PIXELS). */
  scale: number;
}

/** Fully decodes the image (so a truncated file fails here, not later) to grayscale pixels. */
export async function loadImage(bytes: Buffer): Promise<DecodedImage> {
  const type = imageType(bytes);
  const corrupt = () =>
    badInput(`vehiclePicture could not be decoded: the ${type.toUpperCase()} data is corrupt or truncated.`, {
      argument: 'vehiclePicture',
    });
  let meta: Metadata;
  try {
    // The header only: its size is checked below, with a message, before anything is decoded.
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw corrupt();
  }
  const [w, h] = [meta.width ?? 0, meta.height ?? 0];
  if (w < MIN_SIDE || h < MIN_SIDE || w > MAX_SIDE || h > MAX_SIDE) {
    throw badInput(
      `vehiclePicture is ${w}×${h} pixels: width and height must be between ${MIN_SIDE} and ${MAX_SIDE}.`,
      { argument: 'vehiclePicture' },
    );
  }
  if (w * h > MAX_PIXELS) {
    throw badInput(
      `vehiclePicture is ${w}×${h} pixels (${((w * h) / 1e6).toFixed(1)} megapixels): at most ${MAX_PIXELS / 1e6} megapixels are accepted; send a smaller picture.`,
      { argument: 'vehiclePicture' },
    );
  }
  const scale = Math.min(1, Math.sqrt(READ_PIXELS / (w * h)));
  try {
    let pipeline = sharp(bytes, { limitInputPixels: MAX_PIXELS, failOn: 'truncated' }).rotate();
    // A square box of the longest side: the same size whichever way EXIF turns the picture.
    const side = Math.round(Math.max(w, h) * scale);
    if (scale < 1) pipeline = pipeline.resize({ width: side, height: side, fit: 'inside' });
    const { data, info } = await pipeline
      .flatten({ background: '#ffffff' })
      .grayscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return {
      type,
      width: info.width,
      height: info.height,
      gray: data.subarray(0, info.width * info.height),
      scale: scale < 1 ? info.width / ((meta.orientation ?? 1) >= 5 ? h : w) : 1,
    };
  } catch {
    throw corrupt();
  }
}

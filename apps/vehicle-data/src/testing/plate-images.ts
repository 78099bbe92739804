/** Plate pictures generated with sharp from SVG, with known text, for alpr tests and the benchmark. */
import sharp from 'sharp';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

export function plateSvg(
  text: string,
  options: { width?: number; height?: number; euBand?: boolean } = {},
): string {
  const w = options.width ?? 520,
    h = options.height ?? 110;
  const band = options.euBand
    ? `<rect x="3" y="3" width="${h * 0.4}" height="${h - 6}" fill="#003399"/>`
    : '';
  const x0 = options.euBand ? h * 0.4 : 0;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">
<rect x="3" y="3" width="${w - 6}" height="${h - 6}" rx="10" fill="white" stroke="black" stroke-width="6"/>${band}
<text x="${x0 + (w - x0) / 2}" y="${h * 0.76}" font-family="DejaVu Sans Mono, monospace" font-weight="bold" font-size="${h * 0.68}" text-anchor="middle" fill="black">${esc(text)}</text></svg>`;
}

/** A close-up of a plate (PNG). */
export const plateImage = (text: string) =>
  sharp(Buffer.from(plateSvg(text)))
    .png()
    .toBuffer();

/** A plate rotated by `angle` degrees on a grey background (PNG). */
export async function rotatedPlateImage(text: string, angle: number): Promise<Buffer> {
  const flat = await sharp(Buffer.from(plateSvg(text)))
    .flatten({ background: '#6b6b6b' })
    .png()
    .toBuffer();
  return sharp(flat).rotate(angle, { background: '#6b6b6b' }).png().toBuffer();
}

/** A plate on the rear of a car in a street scene (JPEG). */
export async function sceneImage(text: string): Promise<Buffer> {
  const W = 1280,
    H = 860;
  const plate = plateSvg(text, { width: 300, height: 64 });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">
<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#5d7188"/><stop offset="1" stop-color="#8a8f96"/></linearGradient></defs>
<rect width="${W}" height="${H}" fill="url(#sky)"/>
<rect y="${H * 0.7}" width="${W}" height="${H * 0.3}" fill="#3b3b3b"/>
<rect x="300" y="330" width="680" height="330" rx="40" fill="#7a1f1f"/>
<rect x="360" y="250" width="560" height="120" rx="30" fill="#5a1515"/>
<rect x="390" y="270" width="500" height="80" rx="12" fill="#2a3440"/>
<circle cx="400" cy="670" r="60" fill="#111"/><circle cx="880" cy="670" r="60" fill="#111"/>
<rect x="320" y="420" width="90" height="40" rx="6" fill="#d23"/><rect x="870" y="420" width="90" height="40" rx="6" fill="#d23"/>
<g transform="translate(490 520)">${plate.replace(/^<svg[^>]*>/, '').replace(/<\/svg>$/, '')}</g>
</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer();
}

/** A 1×1 GIF. */
export const GIF_BASE64 = 'R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

/** Small real images for the demo (generated with sharp): walkaround photos, defect photos, a signature. */
import sharp from 'sharp';

const svg = (body: string, w: number, h: number) =>
  Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">${body}</svg>`);

async function walkaround(color: string, plateText: string): Promise<Uint8Array> {
  const body = `<rect width="160" height="120" fill="#9cc7e8"/><rect y="80" width="160" height="40" fill="#777"/>
    <rect x="25" y="45" width="110" height="45" rx="6" fill="${color}"/><rect x="95" y="30" width="40" height="25" fill="${color}"/>
    <circle cx="50" cy="92" r="12" fill="#222"/><circle cx="115" cy="92" r="12" fill="#222"/>
    <rect x="60" y="70" width="40" height="10" fill="#fff"/><text x="80" y="78" font-size="7" text-anchor="middle">${plateText}</text>`;
  return new Uint8Array(
    await sharp(svg(body, 160, 120))
      .jpeg({ quality: 70 })
      .toBuffer(),
  );
}

async function defectPhoto(kind: number): Promise<Uint8Array> {
  const marks = [
    '<path d="M20 20 L140 100 M30 90 L120 30" stroke="#300" stroke-width="4"/>',
    '<circle cx="80" cy="60" r="35" fill="#222"/><circle cx="80" cy="60" r="15" fill="#888"/><path d="M60 40 L100 80" stroke="#e33" stroke-width="5"/>',
    '<rect x="50" y="35" width="60" height="50" fill="#ffb300"/><path d="M50 35 L110 85" stroke="#111" stroke-width="3"/>',
  ];
  const body = `<rect width="160" height="120" fill="#b0a89a"/>${marks[kind % marks.length]}`;
  return new Uint8Array(
    await sharp(svg(body, 160, 120))
      .jpeg({ quality: 70 })
      .toBuffer(),
  );
}

async function signature(): Promise<Uint8Array> {
  const body = `<rect width="200" height="60" fill="#fff"/><path d="M10 45 C30 5, 45 60, 60 30 S90 10, 100 40 S140 50, 150 20 L190 35" stroke="#123" stroke-width="3" fill="none"/>`;
  return new Uint8Array(
    await sharp(svg(body, 200, 60))
      .png()
      .toBuffer(),
  );
}

export interface DemoImages {
  walkarounds: Uint8Array[];
  defects: Uint8Array[];
  signature: Uint8Array;
}

export async function demoImages(): Promise<DemoImages> {
  return {
    walkarounds: await Promise.all(
      [
        ['#f5f5f5', 'WHITE'],
        ['#1e4fa3', 'BLUE'],
        ['#c62828', 'RED'],
        ['#2e7d32', 'GREEN'],
      ].map(([c, t]) => walkaround(c!, t!)),
    ),
    defects: await Promise.all([0, 1, 2].map(defectPhoto)),
    signature: await signature(),
  };
}

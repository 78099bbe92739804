/**
 * Plate localization by image processing: on a downscaled grayscale copy, an Otsu threshold
 * separates bright areas; connected bright components shaped like a plate (aspect ratio, fill,
 * size, not touching the border) that hold dark marks (characters) are plate candidates, best
 * first. The whole picture is always a last candidate (a close-up of a plate).
 */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const WORK_WIDTH = 400;

function otsu(gray: Uint8Array | Buffer): number {
  const hist = new Array<number>(256).fill(0);
  for (const v of gray) hist[v]!++;
  const total = gray.length;
  let sum = 0;
  for (let i = 0; i < 256; i++) sum += i * hist[i]!;
  let sumB = 0,
    wB = 0,
    best = 0,
    threshold = 128;
  for (let t = 0; t < 256; t++) {
    wB += hist[t]!;
    if (wB === 0) continue;
    const wF = total - wB;
    if (wF === 0) break;
    sumB += t * hist[t]!;
    const mB = sumB / wB,
      mF = (sum - sumB) / wF;
    const between = wB * wF * (mB - mF) ** 2;
    if (between > best) [best, threshold] = [between, t];
  }
  return threshold;
}

/** Downscales by nearest-neighbour averaging to at most WORK_WIDTH columns. */
function downscale(gray: Buffer, width: number, height: number) {
  const scale = Math.max(1, width / WORK_WIDTH);
  const w = Math.max(1, Math.round(width / scale)),
    h = Math.max(1, Math.round(height / scale));
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++)
      out[y * w + x] =
        gray[
          Math.min(height - 1, Math.floor(y * scale)) * width + Math.min(width - 1, Math.floor(x * scale))
        ]!;
  }
  return { small: out, w, h, scale };
}

export function locatePlates(gray: Buffer, width: number, height: number, max = 4): Box[] {
  const { small, w, h, scale } = downscale(gray, width, height);
  const threshold = otsu(small);
  const bright = (i: number) => small[i]! > threshold;
  const label = new Int32Array(w * h).fill(-1);
  const boxes: { box: Box; score: number }[] = [];
  const stack: number[] = [];
  for (let start = 0; start < w * h; start++) {
    if (label[start] !== -1 || !bright(start)) continue;
    let minX = w,
      minY = h,
      maxX = 0,
      maxY = 0,
      count = 0;
    label[start] = start;
    stack.push(start);
    while (stack.length) {
      const i = stack.pop()!;
      const x = i % w,
        y = (i - x) / w;
      count++;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
      for (const n of [
        x > 0 ? i - 1 : -1,
        x < w - 1 ? i + 1 : -1,
        y > 0 ? i - w : -1,
        y < h - 1 ? i + w : -1,
      ]) {
        if (n >= 0 && label[n] === -1 && bright(n)) {
          label[n] = start;
          stack.push(n);
        }
      }
    }
    const bw = maxX - minX + 1,
      bh = maxY - minY + 1;
    const aspect = bw / bh;
    const fill = count / (bw * bh);
    if (bw * bh < w * h * 0.004 || bh < 6 || aspect < 1.6 || aspect > 8 || fill < 0.35) continue;
    if (minX === 0 || minY === 0 || maxX === w - 1 || maxY === h - 1) continue;
    let dark = 0;
    for (let y = minY; y <= maxY; y++) for (let x = minX; x <= maxX; x++) if (!bright(y * w + x)) dark++;
    const darkShare = dark / (bw * bh);
    if (darkShare < 0.04 || darkShare > 0.6) continue;
    // Plates are about 4.7:1 (EU) or 2:1 (US); prefer large, well-filled components with text.
    const score =
      fill * Math.min(1, darkShare / 0.15) * Math.log(bw * bh) * (aspect >= 1.8 && aspect <= 6 ? 1 : 0.6);
    const pad = 2;
    boxes.push({
      box: {
        x: Math.max(0, Math.floor((minX - pad) * scale)),
        y: Math.max(0, Math.floor((minY - pad) * scale)),
        width: Math.min(width, Math.ceil((bw + 2 * pad) * scale)),
        height: Math.min(height, Math.ceil((bh + 2 * pad) * scale)),
      },
      score,
    });
  }
  const found = boxes
    .sort((a, b) => b.score - a.score)
    .slice(0, max)
    .map((b) => ({
      ...b.box,
      width: Math.min(b.box.width, width - b.box.x),
      height: Math.min(b.box.height, height - b.box.y),
    }));
  return [...found, { x: 0, y: 0, width, height }];
}

/**
 * Large pictures as people pick them (a camera's 9 MB photo, a heavy transparent logo), made here
 * with sharp and written to a temporary folder, and what the page sends while uploading them:
 * decision 0027 holds if every request body stays under Netlify's limit.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page, Request } from '@playwright/test';
import sharp from 'sharp';

/** Netlify's effective limit on a binary request body ("4.5 MB"; read as decimal, the stricter). */
export const NETLIFY_BODY_LIMIT = 4.5 * 1000 * 1000;
/** The spec's limit on a picked photo or logo (the screens say "10MB"). */
export const TEN_MB = 10 * 1024 * 1024;

async function written(name: string, bytes: Buffer): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'large-upload-')), name);
  await writeFile(path, bytes);
  return path;
}

/**
 * A JPEG at quality 95 of a sky-to-sea gradient under heavy grain (fine detail compresses badly, as
 * in a real photo of foliage or water): at 4000 x 3000 (a 12-megapixel camera's) about 9 MB, under
 * the spec's 10MB; about 0.77 bytes a pixel. Its path and size.
 */
export async function largePhoto(
  name = 'camera.jpg',
  width = 4000,
  height = 3000,
): Promise<{ path: string; bytes: number }> {
  const pixels = await sharp({
    create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 55 } },
  })
    .raw()
    .toBuffer();
  for (let y = 0; y < height; y += 1) {
    const t = y / height;
    const base = [70 + 120 * t, 130 + 60 * t, 200 - 80 * t];
    for (let x = 0; x < width; x += 1) {
      const at = (y * width + x) * 3;
      for (let channel = 0; channel < 3; channel += 1) {
        const grain = ((pixels[at + channel] ?? 128) - 128) * 0.6;
        pixels[at + channel] = Math.max(0, Math.min(255, (base[channel] ?? 0) + grain));
      }
    }
  }
  const jpeg = await sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 95 })
    .toBuffer();
  return { path: await written(name, jpeg), bytes: jpeg.length };
}

/**
 * A 1500 x 1500 logo on a transparent background (a gradient disc, a ring and a bar), saved as a
 * PNG without compression as some design tools export it: about 9 MB, under the spec's 10MB, yet
 * light once scaled (what the server stores stays small). Its path and size.
 */
export async function heavyLogo(name = 'logo.png'): Promise<{ path: string; bytes: number }> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1500" height="1500">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#1d4ed8"/><stop offset="1" stop-color="#15803d"/></linearGradient></defs>
    <circle cx="750" cy="620" r="520" fill="url(#g)"/>
    <circle cx="750" cy="620" r="360" fill="none" stroke="#ffffff" stroke-width="60"/>
    <rect x="150" y="1230" width="1200" height="160" rx="40" fill="#c0392b"/>
  </svg>`;
  const png = await sharp(Buffer.from(svg)).png({ compressionLevel: 0 }).toBuffer();
  return { path: await written(name, png), bytes: png.length };
}

/**
 * A 1600 x 1500 PNG with an alpha channel, every pixel noise: about 9 MB, and even scaled to the
 * 1200 px the server keeps too heavy for one request as a PNG (the page must try harder). Its path
 * and size.
 */
export async function noiseLogo(name = 'noise.png'): Promise<{ path: string; bytes: number }> {
  const png = await sharp({
    create: {
      width: 1600,
      height: 1500,
      channels: 4,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 80 },
    },
  })
    .png()
    .toBuffer();
  return { path: await written(name, png), bytes: png.length };
}

export interface SentBody {
  method: string;
  path: string;
  bytes: number;
}

/** The size of a request's body as sent: its bytes, or the Content-Length the browser sent with it. */
async function bodySize(request: Request): Promise<number | null> {
  const length = (await request.allHeaders())['content-length'];
  const buffered = request.postDataBuffer()?.length ?? null;
  const declared = length === undefined ? null : Number(length);
  if (buffered === null) return declared;
  return declared === null ? buffered : Math.max(buffered, declared);
}

/**
 * Every request with a body `page` sends from now on (method, path, size). Read it once the
 * uploads are answered: each size is filled in as its request finishes.
 */
export function recordRequestBodies(page: Page): SentBody[] {
  const sent: SentBody[] = [];
  page.on('requestfinished', (request) => {
    if (request.method() === 'GET' || request.method() === 'HEAD') return;
    void bodySize(request).then((bytes) => {
      if (bytes !== null) sent.push({ method: request.method(), path: new URL(request.url()).pathname, bytes });
    });
  });
  return sent;
}

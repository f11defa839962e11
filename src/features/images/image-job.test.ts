/**
 * Finding 3 of the security audit of 2026-11-26: a 472-byte SVG of filters cost 15-25 s of CPU on
 * the event loop. Images are now decoded in a worker of the pool, SVGs hold only what a logo needs,
 * and a job over its time budget is stopped and refused. No assertion here is on wall time.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../platform/http.ts';
import { workerPoolStats } from '../../platform/worker-pool.server.ts';
import { SVG_RENDER_MAX_SIDE } from './image-job.server.ts';
import { IMAGE_MESSAGES, processImage, type ImageRules } from './public/images.server.ts';
import { svgLogoProblem } from './svg-logo.ts';

const LOGO: ImageRules = { maxSide: 1200, output: 'png', accepts: ['jpeg', 'png', 'webp', 'svg'] };

/** The audit's payload: three filter primitives over the whole picture, `side` pixels square. */
const hostileSvg = (side = 1000): Buffer =>
  Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}"><filter id="f" x="0" y="0" width="100%" height="100%">
<feTurbulence baseFrequency="0.01" numOctaves="10"/><feGaussianBlur stdDeviation="200"/><feMorphology operator="dilate" radius="50"/>
</filter><rect width="100%" height="100%" filter="url(#f)"/></svg>`);

const svg = (body: string, attributes = 'width="200" height="100"'): Buffer =>
  Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" ${attributes}>${body}</svg>`);

async function refusal(promise: Promise<unknown>): Promise<HttpError> {
  const error: unknown = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof HttpError)) throw new Error(`expected an HttpError, got ${String(error)}`);
  return error;
}

describe('SVG logos', () => {
  it.each([1000, 2000])("refuses the audit's %i px filter SVG before rendering it", async (side) => {
    const error = await refusal(processImage(hostileSvg(side), LOGO));
    expect(error.status).toBe(400);
    expect(error.message).toBe(IMAGE_MESSAGES.svgFeatures);
  });

  it.each([
    ['a filter element', '<filter id="f"><feGaussianBlur stdDeviation="9"/></filter><rect width="9" height="9"/>'],
    ['a filter in CSS', '<rect width="9" height="9" style="filter: url(#f)"/>'],
    ['a filter spelled with character references', '<rect width="9" height="9" style="&#102;ilter: url(#f)"/>'],
    ['a filter behind a CSS comment', '<style>rect { filter/**/: url(#f) }</style><rect width="9" height="9"/>'],
    ['a CSS escape', '<style>rect { fil\\74 er: url(#f) }</style>'],
    ['a filter under the svg: prefix', '<svg:filter xmlns:svg="http://www.w3.org/2000/svg" id="f"/>'],
    ['a script', '<script>alert(1)</script>'],
    ['foreignObject', '<foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject>'],
    ['an embedded image', '<image href="data:image/png;base64,AAAA" width="9" height="9"/>'],
    ['an external use', '<use href="http://127.0.0.1:9/x.svg#a"/>'],
    ['a file reference', '<use xlink:href="file:///etc/passwd#a" xmlns:xlink="http://www.w3.org/1999/xlink"/>'],
    ['an external url() fill', '<rect width="9" height="9" fill="url(http://127.0.0.1:9/p.svg#g)"/>'],
    ['an @import', '<style>@import "http://127.0.0.1:9/x.css";</style>'],
    ['a DOCTYPE', ''],
    [
      'a <use> inside a referenced group (ten of ten draw a path 100 times, four levels 10^4)',
      '<defs><path id="p" d="M0 0L9 9"/><g id="a"><use href="#p"/><use href="#p"/></g></defs><use href="#a"/>',
    ],
    ['a <use> hidden from the walk by a comment', '<g id="a"><!-- </g> --><use href="#p"/></g><path id="p" d="M0 0"/>'],
    [
      'more <use>s than its size allows',
      `<path id="p" d="M0 0${' L1 1'.repeat(5_000)}"/>${'<use href="#p"/>'.repeat(5)}`,
    ],
    ['more than 5000 elements', '<g/>'.repeat(5001)],
    ['more than 128 KB', `<path d="M0 0${' L1 1'.repeat(30_000)}"/>`],
    ['a marker', '<marker id="m"><path d="M0 0"/></marker><path d="M0 0L9 9" marker-mid="url(#m)"/>'],
  ])('refuses %s', (_label, body) => {
    const bytes =
      body === ''
        ? Buffer.from('<!DOCTYPE svg [<!ENTITY e "x">]><svg xmlns="http://www.w3.org/2000/svg">&e;</svg>')
        : svg(body);
    expect(svgLogoProblem(bytes)).toBeDefined();
  });

  it('keeps what a logo is made of: shapes, text, gradients, clipping, local references, editor metadata', () => {
    const logo = svg(
      `<defs><linearGradient id="g"><stop offset="0" stop-color="#0a58ca"/></linearGradient>
       <clipPath id="c"><rect width="200" height="100"/></clipPath></defs>
       <style>.a { fill: url(#g) }</style>
       <g clip-path="url(#c)"><rect class="a" width="200" height="100"/><circle cx="50" cy="50" r="20"/>
       <path d="M0 0L10 10"/><text x="10" y="80">Harbor &amp; Co &#169;</text></g>
       <use href="#c"/><sodipodi:namedview xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd"/>`,
    );
    expect(svgLogoProblem(logo)).toBeUndefined();
  });

  it(`renders a plain SVG of 2000 x 2000 at most ${SVG_RENDER_MAX_SIDE} px a side`, async () => {
    const image = await processImage(
      svg('<rect width="2000" height="2000" fill="#0a58ca"/>', 'width="2000" height="2000"'),
      LOGO,
    );
    expect(Math.max(image.width, image.height)).toBeLessThanOrEqual(SVG_RENDER_MAX_SIDE);
    expect(image.contentType).toBe('image/png');
  });
});

describe('the image worker', () => {
  it('makes a print copy of a few hundred pixels when asked', async () => {
    const noise = Buffer.alloc(1200 * 1200 * 3);
    for (let i = 0; i < noise.length; i += 1) noise[i] = (i * 2654435761) % 251;
    const bytes = await sharp(noise, { raw: { width: 1200, height: 1200, channels: 3 } })
      .jpeg({ quality: 90 })
      .toBuffer();
    const image = await processImage(bytes, { ...LOGO, printSide: 300 });
    expect(image.width).toBe(1200);
    expect(image.print?.width).toBe(300);
    expect(image.print?.bytes.byteLength).toBeLessThan(120_000);
  });

  it('stops a job past its time budget, kills its worker and refuses the upload; the next job runs', async () => {
    const killed = workerPoolStats().killed;
    const photo = await sharp({ create: { width: 2000, height: 2000, channels: 3, background: '#123456' } })
      .png()
      .toBuffer();
    // A budget no decode fits in: the worker is terminated, the caller answered at once.
    const error = await refusal(processImage(photo, LOGO, { budgetMs: 1 }));
    expect(error.status).toBe(400);
    expect(error.message).toBe(IMAGE_MESSAGES.tooSlow);
    expect(workerPoolStats().killed).toBe(killed + 1);
    const completed = workerPoolStats().completed('image');
    const image = await processImage(photo, LOGO);
    expect(image.width).toBe(1200);
    expect(workerPoolStats().completed('image')).toBe(completed + 1);
  });
});

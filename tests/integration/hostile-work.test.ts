/**
 * Findings 3 and 4 of the security audit of 2026-11-26, over HTTP on both backends: the requests
 * that made the server spend seconds of CPU on the event loop. A filter SVG is refused; a caller who
 * may not change the site's images is refused before anything is decoded; the estimate PDF prints
 * print-size images, is made once per version and then served from storage (the e-mail attaches
 * the same one), has a per-IP limit, and is made in a worker while the server keeps answering.
 * Work done in workers is counted (workerPoolStats), never timed.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { profileAnswerSchema } from '../../src/features/agents/profile.ts';
import { ESTIMATE_LIMITS } from '../../src/features/net-sheet/public/estimate-limits.server.ts';
import { IMAGE_MESSAGES } from '../../src/features/images/public/images.server.ts';
import { estimateAttachments } from '../../src/features/email/estimate-attachments.server.ts';
import { workerPoolStats } from '../../src/platform/worker-pool.server.ts';
import { expectError, expectJson, expectTooMany } from '../support/api-suite.ts';
import { clientAs, IP_HEADER, SESSION_COOKIE, useAuthSuite, type Client } from '../support/auth-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { TEST_SITE_URL } from '../support/email-suite.ts';
import { createAgent } from '../support/fixtures.ts';
import { closeGates } from '../support/gate-job.ts';
import { blobOf, dataUrl, formOf, imageCount, png } from '../support/images.ts';
import { estimateResponse } from '../support/schemas.ts';

/** The audit's payload: 472 bytes of JSON that cost 15-25 s of CPU each. */
const hostileSvg = (side: number): Buffer =>
  Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}"><filter id="f" x="0" y="0" width="100%" height="100%">
<feTurbulence baseFrequency="0.01" numOctaves="10"/><feGaussianBlur stdDeviation="200"/><feMorphology operator="dilate" radius="50"/>
</filter><rect width="100%" height="100%" filter="url(#f)"/></svg>`);

/** Random pixels (no compression can shrink them): the audit's large-logo case. */
function noise(side: number, seed: number): Buffer {
  const pixels = Buffer.alloc(side * side * 3);
  let state = seed;
  for (let i = 0; i < pixels.length; i += 1) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    pixels[i] = state & 0xff;
  }
  return pixels;
}

const noisyJpeg = (side: number, seed: number): Promise<Buffer> =>
  sharp(noise(side, seed), { raw: { width: side, height: side, channels: 3 } })
    .jpeg({ quality: 70 })
    .toBuffer();

const SITE_IMAGE_ROUTES = [
  '/api/upload/og-image',
  '/api/upload/website-logo',
  '/api/upload/town-logo',
  '/town-logo-api.php',
];

describe.each(BACKENDS)('hostile image and PDF work on %s', (backend) => {
  const suite = useAuthSuite(backend, 'hostile-work');

  async function agentClient(): Promise<{ client: Client; slug: string }> {
    const agent = await createAgent(suite.db);
    return { client: await clientAs(suite, agent.id), slug: agent.slug };
  }

  const createEstimate = async (slug: string) =>
    (
      await expectJson(
        await suite.client().post('/api/estimates', { agent_slug: slug, sale_price: 780200, mortgage_payoff: 450000 }),
        201,
        estimateResponse,
      )
    ).estimate;

  describe('finding 3: image uploads', () => {
    it.each([1000, 2000])("refuses the audit's %i px filter SVG as a logo, storing nothing", async (side) => {
      const { client } = await agentClient();
      const before = await imageCount(suite.db);
      const decoded = workerPoolStats().completed('image');
      await expectError(
        await client.post('/api/upload/logo', { imageData: dataUrl(hostileSvg(side), 'image/svg+xml') }),
        400,
        IMAGE_MESSAGES.svgFeatures,
      );
      expect(await imageCount(suite.db)).toBe(before);
      // Refused by the worker's scan, before librsvg drew anything.
      expect(workerPoolStats().completed('image')).toBe(decoded + 1);
    });

    it.each(SITE_IMAGE_ROUTES)('%s: an agent who is not an admin gets 403 and nothing is decoded', async (path) => {
      const { client } = await agentClient();
      const decoded = workerPoolStats().completed('image');
      // A real image (decoded, it would be stored), the hostile SVG, and a body that would be a 400.
      for (const image of [dataUrl(await png(240, 60)), dataUrl(hostileSvg(2000), 'image/svg+xml'), 'not base64!']) {
        await expectError(await client.post(path, { image }), 403, 'Only admins can change site-wide settings');
      }
      await expectError(await client.send('POST', path, '{not json'), 403, 'Only admins can change site-wide settings');
      expect(workerPoolStats().completed('image')).toBe(decoded);
    });

    it('/api/images/upload (the showcase): an agent who is not an admin gets 403 and nothing is decoded', async () => {
      const { client } = await agentClient();
      const decoded = workerPoolStats().completed('image');
      const form = formOf({ image: blobOf(await png(640, 480)) });
      const response = await suite.api.fetch('/api/images/upload', {
        method: 'POST',
        headers: { origin: suite.api.origin, [IP_HEADER]: client.ip, cookie: `${SESSION_COOKIE}=${client.session}` },
        body: form,
      });
      await expectError(response, 403, 'Only admins can change site-wide settings');
      expect(workerPoolStats().completed('image')).toBe(decoded);
    });
  });

  describe('finding 4: the estimate PDF', () => {
    /** An agent showing a noisy 1200 px logo and a noisy 800 px photo, and an estimate of theirs. */
    async function agentWithNoisyImages() {
      const { client, slug } = await agentClient();
      await expectJson(
        await client.post('/api/upload/logo', {
          imageData: dataUrl(await noisyJpeg(1200, 7), 'image/jpeg'),
          showLogo: true,
        }),
        200,
        profileAnswerSchema,
      );
      await expectJson(
        await client.post('/api/upload/profile-photo', {
          imageData: dataUrl(await noisyJpeg(800, 11), 'image/jpeg'),
          showProfilePhoto: true,
        }),
        200,
        profileAnswerSchema,
      );
      return { client, slug, estimate: await createEstimate(slug) };
    }

    const getPdf = (uuid: string, client: Client = suite.client()) => client.get(`/api/estimates/${uuid}/pdf`);

    it('stays under 300 KB with a noisy 1200 px logo and photo, both printed', async () => {
      const { estimate } = await agentWithNoisyImages();
      const response = await getPdf(estimate.uuid);
      expect(response.status).toBe(200);
      const pdf = Buffer.from(await response.arrayBuffer());
      expect(pdf.byteLength).toBeLessThan(300 * 1024);
      expect(pdf.toString('latin1').match(/\/Subtype \/Image/g)?.length).toBe(2);
    });

    it('is made once, then served from storage (and attached to the e-mail), and made again when the logo changes', async () => {
      const { client, estimate } = await agentWithNoisyImages();
      const renders = () => workerPoolStats().completed('net-sheet-pdf');
      const before = renders();
      const first = Buffer.from(await (await getPdf(estimate.uuid)).arrayBuffer());
      expect(renders()).toBe(before + 1);
      const again = Buffer.from(await (await getPdf(estimate.uuid)).arrayBuffer());
      expect(again.equals(first)).toBe(true);
      // The estimate e-mail attaches the stored PDF: no render of its own.
      const [attachment] = await estimateAttachments(
        suite.db,
        TEST_SITE_URL,
      )({
        kind: 'estimate',
        estimateUuid: estimate.uuid,
      });
      expect(Buffer.from(attachment?.content ?? []).equals(first)).toBe(true);
      expect(renders()).toBe(before + 1);
      // A new logo is a new version of what the sheet prints.
      await expectJson(
        await client.post('/api/upload/logo', { imageData: dataUrl(await png(300, 100, '#aa3300')), showLogo: true }),
        200,
        profileAnswerSchema,
      );
      const changed = Buffer.from(await (await getPdf(estimate.uuid)).arrayBuffer());
      expect(changed.equals(first)).toBe(false);
      expect(renders()).toBe(before + 2);
      const [{ count } = { count: 0 }] = await suite.db.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM estimate_pdfs WHERE estimate_uuid = $1',
        [estimate.uuid],
      );
      expect(count).toBe(1);
    });

    it('answers 429 past the per-IP limit, with Retry-After, and other addresses still get theirs', async () => {
      const { estimate } = await agentWithNoisyImages();
      const client = suite.client();
      // The window's allowance already spent by this address (counted as the limit counts it).
      await suite.db.query(
        `INSERT INTO rate_limits (key, window_start, hits)
         VALUES ($1, to_timestamp(floor(extract(epoch FROM now())::float8 / $2) * $2), $3)`,
        [`estimate-pdf:ip:${client.ip}`, ESTIMATE_LIMITS.pdfsPerIp.windowSeconds, ESTIMATE_LIMITS.pdfsPerIp.limit],
      );
      await expectTooMany(await getPdf(estimate.uuid, client), ESTIMATE_LIMITS.pdfsPerIp.windowSeconds);
      expect((await getPdf(estimate.uuid)).status).toBe(200);
    });

    it('is made in a worker: while every worker is busy, the server answers other requests', async () => {
      const { estimate } = await agentWithNoisyImages();
      const renders = workerPoolStats().completed('net-sheet-pdf');
      const gates = closeGates();
      const events: string[] = [];
      const pdf = getPdf(estimate.uuid).then((response) => {
        events.push('pdf');
        return response;
      });
      // The PDF waits for a worker; the event loop is free, so a trivial read answers meanwhile.
      const settings = await suite.client().get('/api/global/settings');
      events.push('settings');
      expect(settings.status).toBe(200);
      gates.open();
      await gates.done;
      expect((await pdf).status).toBe(200);
      expect(events).toEqual(['settings', 'pdf']);
      expect(workerPoolStats().completed('net-sheet-pdf')).toBe(renders + 1);
    });
  });
});

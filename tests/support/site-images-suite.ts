/**
 * What the site-wide image tests (tests/integration/site-images-*.test.ts) share: the routes, the
 * upload limit, the strict answer shapes, and a suite whose settings rows start each test with no
 * image, with an admin and an agent to call as and a check that a refusal wrote nothing.
 */
import { beforeEach, expect } from 'vitest';
import * as z from 'zod';
import { MAX_UPLOAD_BODY_BYTES } from '../../src/ui/uploads.ts';
import {
  siteImageAnswerSchema,
  siteImageDeletedSchema,
  siteLogosSavedSchema,
} from '../../src/features/site-images/public/site-images.ts';
import { expectError } from './api-suite.ts';
import { clientAs, useAuthSuite, type Client } from './auth-suite.ts';
import type { Backend } from './backends.ts';
import { createAgent } from './fixtures.ts';
import { imageCount } from './images.ts';

export const OG = '/api/upload/og-image';
export const WEBSITE_LOGO = '/api/upload/website-logo';
export const TOWN_LOGO = '/api/upload/town-logo';
export const LEGACY_TOWN_LOGO = '/town-logo-api.php';
export const SETTINGS = '/api/agents/me/settings';
/** Image bytes whose base64 alone passes the one upload limit (decision 0027). */
export const OVER_LIMIT = Math.ceil((MAX_UPLOAD_BODY_BYTES * 3) / 4) + 1;

export const uploaded = z.strictObject(siteImageAnswerSchema.shape);
export const deleted = z.strictObject(siteImageDeletedSchema.shape);
export const saved = z.strictObject(siteLogosSavedSchema.shape);

export const UPLOADS = [
  { path: OG, type: 'image/jpeg' },
  { path: WEBSITE_LOGO, type: 'image/png' },
  { path: TOWN_LOGO, type: 'image/png' },
] as const;

/** Every route that takes a site-wide image, the old product's town-logo path too. */
export const UPLOAD_PATHS = [...UPLOADS.map(({ path }) => ({ path })), { path: LEGACY_TOWN_LOGO }];

/** The suite of the site-wide image tests on `backend` (call inside a describe block). */
export function useSiteImagesSuite(backend: Backend) {
  const suite = useAuthSuite(backend, 'siteimages');

  beforeEach(async () => {
    await suite.db.query(
      `UPDATE site_settings SET website_logo = NULL, website_logo_type = 'png', website_logo_scale = 1,
              town_page_logo = NULL, town_page_logo_type = NULL, show_town_page_logo = false`,
    );
    await suite.db.query('UPDATE seo_settings SET og_image_data = NULL, og_image_type = NULL');
  });

  async function adminClient(): Promise<Client> {
    const agent = await createAgent(suite.db, { is_admin: true });
    return clientAs(suite, agent.id);
  }
  const agentClient = async () => clientAs(suite, (await createAgent(suite.db)).id);

  /** What the settings rows hold: a refusal must leave them, and the images table, as they were. */
  async function snapshot() {
    const [site] = await suite.db.query('SELECT * FROM site_settings');
    const [seo] = await suite.db.query('SELECT * FROM seo_settings');
    return { site, seo, images: await imageCount(suite.db) };
  }

  async function expectRefused(request: () => Promise<Response>, status: number, message: string): Promise<void> {
    const before = await snapshot();
    await expectError(await request(), status, message);
    expect(await snapshot()).toEqual(before);
  }

  return { suite, adminClient, agentClient, snapshot, expectRefused };
}

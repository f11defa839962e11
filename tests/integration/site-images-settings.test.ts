/**
 * The logo scale and the town-logo toggle (PATCH /api/agents/me/settings shapes 2 and 3), over
 * HTTP on both backends: saved and refused, an agent's own defaults (shape 1) still saved, what the
 * pages read (GET /api/global/settings at run time, loadSiteChrome at build time), and every save
 * marking the pre-rendered pages out of date.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { siteLogosAnswerSchema } from '../../src/features/site-images/public/site-images.ts';
import { readSiteChrome } from '../../src/app/build-data.ts';
import { expectError, expectJson } from '../support/api-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { dataUrl, png } from '../support/images.ts';
import {
  OG,
  saved,
  SETTINGS,
  TOWN_LOGO,
  uploaded,
  useSiteImagesSuite,
  WEBSITE_LOGO,
} from '../support/site-images-suite.ts';

describe.each(BACKENDS)('site-wide images on %s', (backend) => {
  const { suite, adminClient, agentClient, snapshot, expectRefused } = useSiteImagesSuite(backend);
  describe('the logo scale and the town-logo toggle (PATCH /api/agents/me/settings)', () => {
    it('saves the scale and answers the logo settings; GET /api/global/settings then gives it', async () => {
      const admin = await adminClient();
      const answer = await expectJson(await admin.send('PATCH', SETTINGS, { website_logo_scale: 1.3 }), 200, saved);
      expect(answer.message).toBe('Website settings saved successfully!');
      expect(answer.settings).toMatchObject({ website_logo_scale: 1.3, show_town_page_logo: false });
      const global = await expectJson(await suite.client().get('/api/global/settings'), 200, siteLogosAnswerSchema);
      expect(global.settings.website_logo_scale).toBe(1.3);
      for (const scale of [0.5, 2]) {
        await expectJson(await admin.send('PATCH', SETTINGS, { website_logo_scale: scale }), 200, saved);
      }
    });

    it.each([
      [0.4, 'Logo scale must be between 0.5 and 2.0'],
      [2.1, 'Logo scale must be between 0.5 and 2.0'],
      [1.25, 'Logo scale goes in steps of 0.1'],
      ['1.5', 'Logo scale must be a number'],
      [null, 'Logo scale must be a number'],
    ])('refuses the scale %s with "%s", changing nothing', async (scale, message) => {
      const admin = await adminClient();
      const before = await snapshot();
      const refused = await expectError(
        await admin.send('PATCH', SETTINGS, { website_logo_scale: scale }),
        400,
        message,
      );
      expect(refused.fields).toEqual({ website_logo_scale: message });
      expect(await snapshot()).toEqual(before);
    });

    it('refuses a wrong toggle, the logo images themselves, and malformed JSON, changing nothing', async () => {
      const admin = await adminClient();
      await expectRefused(
        () => admin.send('PATCH', SETTINGS, { show_town_page_logo: 'yes' }),
        400,
        'show_town_page_logo must be true or false',
      );
      await expectRefused(
        () => admin.send('PATCH', SETTINGS, { website_logo: 'https://evil.example/logo.png' }),
        400,
        'The logo images are uploaded and deleted through their upload routes',
      );
      await expectRefused(
        () => admin.send('PATCH', SETTINGS, { website_logo_scale: 1.2, town_page_logo_type: 'svg' }),
        400,
        'The logo images are uploaded and deleted through their upload routes',
      );
      await expectRefused(
        () => admin.send('PATCH', SETTINGS, '{"website_logo_scale": 1.'),
        400,
        'The request body is not valid JSON',
      );
    });

    it('an agent still saves their own calculator defaults (shape 1)', async () => {
      const agent = await agentClient();
      const answer = await agent.send('PATCH', SETTINGS, {
        default_attorney_fee: 1500,
        default_recording_fee: 250,
        transfer_tax_rate_per_1000: 4,
        default_commission_percent: 5,
      });
      expect(answer.status).toBe(200);
    });

    it('the toggle and the town logo are what the town pages are built with (loadSiteChrome)', async () => {
      const admin = await adminClient();
      const { image_data } = await expectJson(
        await admin.send('POST', TOWN_LOGO, { image: dataUrl(await png(300, 100)) }),
        200,
        uploaded,
      );
      const og = await expectJson(await admin.send('POST', OG, { image: dataUrl(await png(500, 285)) }), 200, uploaded);
      const logo = await expectJson(
        await admin.send('POST', WEBSITE_LOGO, { image: dataUrl(await png(200, 50)) }),
        200,
        uploaded,
      );
      await expectJson(await admin.send('PATCH', SETTINGS, { website_logo_scale: 1.2 }), 200, saved);
      // What a build reads (readSiteChrome: loadSiteChrome is memoised for a whole build). No
      // vi.resetModules: it would give the next suite's route groups, loaded on first use, module
      // instances apart from the app's own (the session the access check keeps with the request).
      const chrome = () => readSiteChrome(suite.db);
      expect(await chrome()).toMatchObject({
        townLogo: null,
        logo: { src: logo.image_data, height: 96 },
        seo: { ogImage: og.image_data },
      });
      const on = await expectJson(await admin.send('PATCH', SETTINGS, { show_town_page_logo: true }), 200, saved);
      expect(on.message).toBe('Town page logo settings saved successfully!');
      expect(on.settings).toMatchObject({ town_page_logo: image_data, show_town_page_logo: true });
      expect((await chrome()).townLogo).toEqual({ src: image_data });
    });
  });

  it('every save marks the pre-rendered pages as out of date (site_changes)', async () => {
    const admin = await adminClient();
    const changedAt = async () =>
      z.object({ changed_at: z.coerce.date() }).parse((await suite.db.query('SELECT changed_at FROM site_changes'))[0])
        .changed_at;
    for (const [method, path, body] of [
      ['POST', WEBSITE_LOGO, { image: dataUrl(await png()) }],
      ['PATCH', SETTINGS, { website_logo_scale: 0.7 }],
      ['DELETE', OG, undefined],
    ] as const) {
      await suite.db.query("UPDATE site_changes SET changed_at = '2000-01-01'");
      expect((await admin.send(method, path, body)).status).toBe(200);
      expect((await changedAt()).getFullYear()).toBeGreaterThan(2000);
    }
  });
});

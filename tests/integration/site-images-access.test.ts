/**
 * Who may change the admin's site-wide images, over HTTP on both backends: every upload, delete
 * and logo setting answers 401 signed out and 403 to an agent (before anything about the body),
 * writing nothing, and 200 to an admin.
 */
import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.ts';
import { dataUrl, png } from '../support/images.ts';
import { LEGACY_TOWN_LOGO, OVER_LIMIT, SETTINGS, UPLOADS, useSiteImagesSuite } from '../support/site-images-suite.ts';

describe.each(BACKENDS)('site-wide images on %s', (backend) => {
  const { suite, adminClient, agentClient, expectRefused } = useSiteImagesSuite(backend);
  describe('who may call each route', () => {
    const calls = async (): Promise<[string, string, unknown][]> => {
      const image = dataUrl(await png());
      return [
        ...UPLOADS.flatMap(({ path }): [string, string, unknown][] => [
          ['POST', path, { image, filename: 'logo.png' }],
          ['DELETE', path, undefined],
        ]),
        ['POST', LEGACY_TOWN_LOGO, { image, filename: 'logo.png' }],
        ['DELETE', LEGACY_TOWN_LOGO, undefined],
        ['PATCH', SETTINGS, { website_logo_scale: 1.5 }],
        ['PATCH', SETTINGS, { show_town_page_logo: true }],
      ];
    };

    it('each answers 401 signed out and 403 to an agent, writing nothing; 200 to an admin', async () => {
      const agent = await agentClient();
      const admin = await adminClient();
      for (const [method, path, body] of await calls()) {
        await expectRefused(() => suite.client().send(method, path, body), 401, 'Please log in');
        await expectRefused(() => agent.send(method, path, body), 403, 'Only admins can change site-wide settings');
        const answer = await admin.send(method, path, body);
        expect(answer.status, `${method} ${path}: ${await answer.clone().text()}`).toBe(200);
      }
    });

    it('an agent is told 403 before anything about a bad or oversized body', async () => {
      const agent = await agentClient();
      for (const { path } of UPLOADS) {
        await expectRefused(
          () => agent.send('POST', path, '{"image":'),
          403,
          'Only admins can change site-wide settings',
        );
        await expectRefused(
          () => agent.send('POST', path, { image: 'not base64!' }),
          403,
          'Only admins can change site-wide settings',
        );
        await expectRefused(
          () => agent.send('POST', path, { image: Buffer.alloc(OVER_LIMIT, 0x41).toString('base64') }),
          403,
          'Only admins can change site-wide settings',
        );
      }
      await expectRefused(
        () => agent.send('PATCH', SETTINGS, { website_logo_scale: 9 }),
        403,
        'Only admins can change site-wide settings',
      );
    });
  });
});

/**
 * Public reads at the edge (docs/decisions/0020-public-reads-at-the-edge.md) over real HTTP on both
 * backends: the answers that are the same for every visitor carry Netlify's CDN headers and cache
 * tags, every other answer (errors of those routes too) stays no-store, and each write purges
 * exactly the tags of the answers it changed, after which the next GET shows the change.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { allTowns } from '../../src/features/towns/public/town-data.ts';
import { recordingPurger } from '../fakes/edge-purger.ts';
import { generateClosedSales } from '../fakes/reso.ts';
import { matching } from '../support/api-suite.ts';
import { clientAs, useAuthSuite, type Client } from '../support/auth-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { createAgent } from '../support/fixtures.ts';
import { dataUrl, formOf, png, profileFields, putProfile } from '../support/images.ts';
import { uploadThroughRoutes } from '../support/market-uploads.ts';

const CDN_CACHED = /^public, durable, s-maxage=\d+, stale-while-revalidate=\d+$/;
const BROWSER_REVALIDATES = 'public, max-age=0, must-revalidate';

/** The sample ZHVI file with Garden City's latest value changed to $987,654. */
const CHANGED_ZHVI = readFileSync('data/sample/zhvi.csv', 'utf8').replace(/^(900000,.*,)\d+(\.\d+)?$/m, '$1987654');

const soldSchema = z.object({ sold_homes: z.array(z.object({ address: z.string() })) });

function expectCachedAtEdge(response: Response, tag: string): void {
  expect(response.status).toBe(200);
  expect(response.headers.get('netlify-cdn-cache-control')).toMatch(CDN_CACHED);
  expect(response.headers.get('netlify-cache-tag')).toBe(tag);
  expect(response.headers.get('cache-control')).toBe(BROWSER_REVALIDATES);
}

function expectNotCached(response: Response): void {
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(response.headers.get('netlify-cdn-cache-control')).toBeNull();
  expect(response.headers.get('netlify-cache-tag')).toBeNull();
}

describe.each(BACKENDS)('public reads at the edge on %s', (backend) => {
  const purger = recordingPurger();
  const suite = useAuthSuite(backend, 'edge-cache', { purgeCache: purger.purge });
  afterEach(() => purger.reset());

  const newAdmin = async () => clientAs(suite, (await createAgent(suite.db, { is_admin: true })).id);
  const publicAgent = async (slug: string) => suite.client().get(`/api/agents/public/${slug}`);
  const json = async (response: Response): Promise<unknown> => response.json();

  describe('headers', () => {
    it('each public read carries the CDN headers and its cache tag', async () => {
      const agent = await createAgent(suite.db);
      const visitor = suite.client();
      const cases: [string, string][] = [
        ['/api/global/settings', 'settings'],
        ['/api/showcase/settings', 'showcase'],
        [`/api/agents/public/${agent.slug}`, `agent:${agent.id}`],
        ['/api/towns/huntington', 'towns'],
        ['/api/towns/huntington/sold', 'sold'],
        ['/api/zillow/market?town=Huntington', 'market'],
        ['/api/sold?town=huntington', 'sold'],
        ['/sold-api.php?town=huntington', 'sold'],
      ];
      for (const [path, tag] of cases) expectCachedAtEdge(await visitor.get(path), tag);
    });

    it('the answers chosen by ?town= are kept per town only, whatever else the query holds', async () => {
      const response = await suite.client().get('/api/zillow/market?town=huntington&utm_source=mail');
      expect(response.headers.get('netlify-vary')).toBe('query=town');
    });

    it('errors of the public reads and every other answer stay no-store', async () => {
      const visitor = suite.client();
      const agent = await clientAs(suite, (await createAgent(suite.db)).id);
      const inactive = await createAgent(suite.db, { status: 'inactive' });
      const samples: [Client, string, number][] = [
        [visitor, '/api/agents/public/nobodyhere', 404],
        [visitor, `/api/agents/public/${inactive.slug}`, 410],
        [visitor, '/api/towns/atlantis', 404],
        [visitor, '/api/zillow/market', 400],
        [visitor, '/api/sold?town=atlantis', 404],
        [visitor, '/api/estimates/00000000-0000-4000-8000-000000000000', 404],
        [visitor, '/api/auth/me', 401],
        [visitor, '/api/no-such-route', 404],
        [agent, '/api/agents/me/settings', 200],
        [agent, '/api/agents/profile', 200],
      ];
      for (const [client, path, status] of samples) {
        const response = await client.get(path);
        expect(response.status, path).toBe(status);
        expectNotCached(response);
      }
      const estimate = await visitor.post('/api/estimates', {
        agent_slug: 'alexmorgan',
        sale_price: 650000,
        mortgage_payoff: 200000,
      });
      expect(estimate.status).toBe(201);
      expectNotCached(estimate);
    });
  });

  describe('purges', () => {
    it('an agent’s settings save purges their public answer, which shows the new commission at once', async () => {
      const account = await createAgent(suite.db);
      const agent = await clientAs(suite, account.id);
      await publicAgent(account.slug);
      const saved = await agent.send('PATCH', '/api/agents/me/settings', {
        default_attorney_fee: 900,
        default_recording_fee: 200,
        transfer_tax_rate_per_1000: 4.15,
        default_commission_percent: 5.25,
      });
      expect(saved.status).toBe(200);
      expect(purger.calls).toEqual([[`agent:${account.id}`]]);
      expect(await json(await publicAgent(account.slug))).toMatchObject({
        settings: { default_commission_percent: 5.25, default_attorney_fee: 900 },
      });
    });

    it('a profile save purges the agent, whose page shows the new name at once', async () => {
      const account = await createAgent(suite.db);
      const agent = await clientAs(suite, account.id);
      await publicAgent(account.slug);
      const saved = await putProfile(suite, agent, formOf(profileFields({ first_name: 'Morgan' })));
      expect(saved.status).toBe(200);
      expect(purger.calls).toEqual([[`agent:${account.id}`]]);
      expect(await json(await publicAgent(account.slug))).toMatchObject({ agent: { first_name: 'Morgan' } });
    });

    it('a photo upload and its removal each purge the agent', async () => {
      const account = await createAgent(suite.db);
      const agent = await clientAs(suite, account.id);
      const uploaded = await agent.post('/api/upload/profile-photo', {
        imageData: dataUrl(await png(200, 200)),
        showProfilePhoto: true,
      });
      expect(uploaded.status).toBe(200);
      expect(await json(await publicAgent(account.slug))).toMatchObject({
        agent: { profile_photo: matching(/^\/api\/images\/[0-9a-f]{64}\.jpg$/) },
      });
      expect((await agent.send('DELETE', '/api/upload/profile-photo')).status).toBe(200);
      expect(purger.calls).toEqual([[`agent:${account.id}`], [`agent:${account.id}`]]);
      expect(await json(await publicAgent(account.slug))).toMatchObject({ agent: { profile_photo: null } });
    });

    it('an admin’s status change and deletion purge the agent', async () => {
      const admin = await newAdmin();
      const account = await createAgent(suite.db);
      expect((await admin.send('PATCH', `/api/admin/agents/${account.id}`, { status: 'inactive' })).status).toBe(200);
      expect((await publicAgent(account.slug)).status).toBe(410);
      expect((await admin.send('DELETE', `/api/admin/agents/${account.id}`)).status).toBe(200);
      expect((await publicAgent(account.slug)).status).toBe(404);
      expect(purger.calls).toEqual([[`agent:${account.id}`], [`agent:${account.id}`]]);
    });

    it('a showcase save purges the showcase, which shows the new card at once', async () => {
      const admin = await newAdmin();
      const fields = {
        showcase_property_price: 912_500,
        showcase_property_address: `${Date.now()} Bayview Court, Northport, NY 11768`,
        showcase_property_beds: 4,
        showcase_property_baths: 2.5,
        showcase_property_sqft: 3120,
      };
      expect((await admin.send('PATCH', '/api/agents/me/showcase', fields)).status).toBe(200);
      expect(purger.calls).toEqual([['showcase']]);
      expect(await json(await suite.client().get('/api/showcase/settings'))).toMatchObject({
        settings: { showcase_property_address: fields.showcase_property_address },
      });
    });

    it('the website logo and its scale purge the settings; the OG image, in no cached answer, purges nothing', async () => {
      const admin = await newAdmin();
      const logo = await admin.send('POST', '/api/upload/website-logo', { image: dataUrl(await png(300, 100)) });
      expect(logo.status).toBe(200);
      const { image_data: url } = z.object({ image_data: z.string() }).parse(await logo.json());
      expect((await admin.send('PATCH', '/api/agents/me/settings', { website_logo_scale: 1.4 })).status).toBe(200);
      expect((await admin.send('POST', '/api/upload/og-image', { image: dataUrl(await png(1200, 630)) })).status).toBe(
        200,
      );
      expect(purger.calls).toEqual([['settings'], ['settings']]);
      expect(await json(await suite.client().get('/api/global/settings'))).toMatchObject({
        settings: { website_logo: url, website_logo_scale: 1.4 },
      });
    });

    it('a refused write purges nothing', async () => {
      const agent = await clientAs(suite, (await createAgent(suite.db)).id);
      expect((await agent.send('PATCH', '/api/agents/me/showcase', { showcase_property_beds: 2 })).status).toBe(403);
      expect((await agent.send('DELETE', '/api/admin/agents/1')).status).toBe(403);
      expect(purger.calls).toEqual([]);
    });

    it('a ZHVI upload purges the market answers once imported, which show the new figure', async () => {
      const admin = await newAdmin();
      expect(await uploadThroughRoutes(suite, admin, 'zhvi', 'zhvi.csv', CHANGED_ZHVI)).toHaveLength(1);
      await suite.settle();
      expect(purger.calls).toEqual([['market']]);
      expect(await json(await suite.client().get('/api/zillow/market?town=garden-city'))).toMatchObject({
        data: { typical_home_value: 987654 },
      });
    });

    it('a sold-homes upload purges the sold answers once imported', async () => {
      const admin = await newAdmin();
      const towns = allTowns().filter((town) => town.slug === 'babylon');
      const soldCount = async () =>
        soldSchema.parse(await json(await suite.client().get('/api/towns/babylon/sold'))).sold_homes.length;
      const before = await soldCount();
      const records = generateClosedSales({ towns, now: new Date(), perTown: 2, monthsBack: 2, keyPrefix: 'EDGE' });
      const body = JSON.stringify({ value: records });
      expect(await uploadThroughRoutes(suite, admin, 'sold', 'sold.json', body)).toHaveLength(1);
      await suite.settle();
      expect(purger.calls).toEqual([['sold']]);
      expect(await soldCount()).toBe(before + records.length);
    });

    it('a failing purge does not fail the save: the error is logged and the origin answers the new data', async () => {
      purger.failing = true;
      const admin = await newAdmin();
      const fields = {
        showcase_property_price: 700_000,
        showcase_property_address: `${Date.now()} Harbor Road, Babylon, NY 11702`,
        showcase_property_beds: 3,
        showcase_property_baths: 2,
        showcase_property_sqft: 1900,
      };
      expect((await admin.send('PATCH', '/api/agents/me/showcase', fields)).status).toBe(200);
      expect(suite.logged.map((entry) => String(entry.error))).toEqual([
        'Error: Cache purge API call returned an unexpected status code: 503',
      ]);
      suite.logged.length = 0;
      expect(await json(await suite.client().get('/api/showcase/settings'))).toMatchObject({
        settings: { showcase_property_address: fields.showcase_property_address },
      });
    });
  });
});

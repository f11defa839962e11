/**
 * GET /api/towns/{slug}, /api/zillow/market?town=, /api/towns/{slug}/sold and the old
 * /sold-api.php?town= over real HTTP on both backends.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { BACKENDS } from '../support/backends.ts';
import { expectError, useApiSuite } from '../support/api-suite.ts';
import { nearestTowns, allTowns } from '../../src/features/towns/public/town-data.ts';

describe.each(BACKENDS)('market API on %s', (backend) => {
  const suite = useApiSuite(backend, 'market');
  const get = (path: string) => suite.api.fetch(path);

  async function storeMarket(slug: string) {
    await suite.db.query(
      `INSERT INTO town_market_data (town_slug, typical_home_value_cents, for_sale_inventory, description, search_url,
                                     zhvi_range, last_updated)
       VALUES ($1, 61234500, 42, 'Home values in Huntington are up 4.2% over the past year.',
               'https://www.zillow.com/huntington-ny/', $2::jsonb, '2026-10-31T00:00:00Z')
       ON CONFLICT (town_slug) DO UPDATE SET zhvi_range = EXCLUDED.zhvi_range`,
      [
        slug,
        JSON.stringify([
          { dataValue: 600000, timePeriodEnd: '2026-09-30' },
          { dataValue: 612345, timePeriodEnd: '2026-10-31' },
        ]),
      ],
    );
  }

  async function storeSales(slug: string, count: number) {
    for (let index = 0; index < count; index += 1) {
      await suite.db.query(
        `INSERT INTO town_sold_homes (listing_key, town_slug, address, beds, baths, sqft, sold_date, listing_agent,
                                      listing_office, price_cents, property_type)
         VALUES ($1, $2, $3, 3, 2.5, 1800, $4, 'Agent A', 'Office B', $5, 'Residential')
         ON CONFLICT (listing_key) DO NOTHING`,
        [`${slug}-${index}`, slug, `${index + 1} Test Lane`, `2026-0${index + 1}-15`, (500_000 + index) * 100],
      );
    }
  }

  it('answers a town with its fields and its nearest neighbours', async () => {
    const response = await get('/api/towns/bay-shore');
    expect(response.status).toBe(200);
    const body = z
      .object({
        success: z.literal(true),
        town: z.record(z.string(), z.unknown()),
        nearby_towns: z.array(z.object({ slug: z.string() })),
      })
      .parse(await response.json());
    expect(body.town).toMatchObject({
      slug: 'bay-shore',
      name: 'Bay Shore',
      county: 'Suffolk',
      zip_codes: ['11706'],
      median_home_price: null,
    });
    // The six nearest of every seeded town, nearest first (as the town page lists them).
    const bayShore = allTowns().find((town) => town.slug === 'bay-shore');
    if (!bayShore) throw new Error('Bay Shore is a seeded town');
    const nearest = nearestTowns(bayShore, allTowns(), 6).map((town) => town.slug);
    expect(nearest).toContain('brightwaters');
    expect(body.nearby_towns.map((town) => town.slug)).toEqual(nearest);
  });

  it('answers market data by town name or slug, and null where there is none yet', async () => {
    await storeMarket('huntington');
    for (const town of ['huntington', 'Huntington', ' HUNTINGTON ']) {
      const response = await get(`/api/zillow/market?town=${encodeURIComponent(town)}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        success: true,
        data: {
          typical_home_value: 612345,
          for_sale_inventory: 42,
          description: 'Home values in Huntington are up 4.2% over the past year.',
          search_url: 'https://www.zillow.com/huntington-ny/',
          last_updated: '2026-10-31T00:00:00.000Z',
          zhvi_range: [
            { dataValue: 600000, timePeriodEnd: '2026-09-30' },
            { dataValue: 612345, timePeriodEnd: '2026-10-31' },
          ],
        },
      });
    }
    expect(await (await get('/api/zillow/market?town=montauk')).json()).toEqual({ success: true, data: null });
  });

  it('answers sold homes newest first, at the clean address and the old one', async () => {
    await storeSales('smithtown', 4);
    for (const path of ['/api/towns/smithtown/sold', '/sold-api.php?town=Smithtown', '/api/sold?town=smithtown']) {
      const response = await get(path);
      expect(response.status).toBe(200);
      const body = z.object({ sold_homes: z.array(z.record(z.string(), z.unknown())) }).parse(await response.json());
      expect(body.sold_homes.map((home) => home.address)).toEqual([
        '4 Test Lane',
        '3 Test Lane',
        '2 Test Lane',
        '1 Test Lane',
      ]);
      expect(body.sold_homes[0]).toEqual({
        address: '4 Test Lane',
        beds: 3,
        baths: 2.5,
        sqft: 1800,
        sold_date: '2026-04-15',
        listing_agent: 'Agent A',
        listing_office: 'Office B',
        price: 500003,
        property_type: 'Residential',
      });
    }
    expect(await (await get('/api/towns/montauk/sold')).json()).toEqual({ success: true, sold_homes: [] });
  });

  it('says Town not found for an unknown town and explains a bad query', async () => {
    for (const path of [
      '/api/towns/atlantis',
      '/api/towns/atlantis/sold',
      '/api/zillow/market?town=Atlantis',
      '/sold-api.php?town=Atlantis',
    ]) {
      await expectError(await get(path), 404, 'Town not found');
    }
    await expectError(await get('/api/zillow/market'), 400, 'Add ?town= with a town name or slug');
    await expectError(await get('/sold-api.php?town='), 400, 'Add ?town= with a town name or slug');
    await expectError(await get('/api/towns/Bad_Slug!'), 400, 'Town is not valid');
    await expectError(
      await get(`/api/zillow/market?town=${'x'.repeat(101)}`),
      400,
      'Town must be at most 100 characters',
    );
    await expectError(await suite.api.fetch('/api/towns/bay-shore', { method: 'POST' }), 405);
  });

  it('each call makes one round trip', async () => {
    for (const path of ['/api/towns/bay-shore', '/api/zillow/market?town=bay-shore', '/api/towns/bay-shore/sold']) {
      const before = suite.db.roundTrips;
      expect((await get(path)).status).toBe(200);
      expect(suite.db.roundTrips - before).toBe(1);
    }
  });
});
